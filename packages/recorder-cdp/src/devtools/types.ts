import type { JsonValue, TestCase } from '@qa/model'

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

export interface DevtoolsImportOptions {
  /** Name of the input file, for error messages. */
  file?: string
  /** Case name when the recording has no title. */
  name?: string
  /** Epoch ms of the import (created_at, action timestamps); default now. */
  now?: number
  /** Prefix of the environment variables that hold secrets (default QA_SECRET_). */
  secretEnvPrefix?: string
}

export interface DevtoolsImportResult {
  testCase: TestCase
  warnings: string[]
}

export interface DevtoolsExportResult {
  recording: DevtoolsRecording
  warnings: string[]
}

/** The step types of the `@puppeteer/replay` schema. */
export const DEVTOOLS_STEP_TYPES = [
  'setViewport',
  'navigate',
  'click',
  'doubleClick',
  'change',
  'keyDown',
  'keyUp',
  'scroll',
  'hover',
  'waitForElement',
  'waitForExpression',
  'close',
  'customStep',
  'emulateNetworkConditions',
] as const
