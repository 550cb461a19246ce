import type { JsonValue } from '@qa/model'

/** A selector as DevTools writes it: a string, or a path through shadow roots (the last entry is the element). */
export type DevtoolsSelector = string | string[]

/** One step of a DevTools recording (`@puppeteer/replay` `Step`); unknown fields are allowed and kept. */
export interface DevtoolsStep {
  type: string
  selectors?: DevtoolsSelector[]
  [field: string]: JsonValue | undefined
}

/** A DevTools Recorder export (`@puppeteer/replay` `UserFlow`). */
export interface DevtoolsRecording {
  title: string
  timeout?: number
  selectorAttribute?: string
  steps: DevtoolsStep[]
  [field: string]: JsonValue | DevtoolsStep[] | undefined
}
