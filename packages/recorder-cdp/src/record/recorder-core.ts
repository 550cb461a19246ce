import type { Action } from '@qa/model'
import type { Page } from 'playwright-core'
import type { CapturedElement, CdpIdentityReader } from '../browser/cdp-identity'
import type { PointerDownSnapshot } from './page-input-event'
import type { StepShots } from './step-shots'

/** A step of interactive recording, as soon as it is recorded (typing into it goes on in the same step). */
export interface RecordedStep {
  /** 0-based index in the case's actions. */
  index: number
  action: Action
  /** A double click took the place of the click recorded just before it (at the same index). */
  replaced: boolean
}

export interface ListenOptions {
  /** Called for every new step, in order. */
  onStep?: (step: RecordedStep) => void
  /**
   * Shows the recorder's toolbar in the page (a closed shadow root, never recorded, never in a screenshot); its
   * "Stop" button calls this.
   */
  onStopRequest?: () => void
}

/** What recording by hand uses of the recorder it listens for: its page, its steps and how it reads and shoots. */
export interface RecorderCore
  extends Pick<StepShots, 'shot' | 'shotWithBytes' | 'frameShot' | 'frameBefore' | 'pointerDownShot' | 'crop'> {
  /** The page the flow is in now (a step that opens a page moves it there). */
  readonly page: Page
  /** The case's steps so far, in order (recording by hand adds to them and changes the last ones). */
  readonly actions: Action[]
  readonly caseDir: string
  readonly screenshots: boolean
  readonly quietMs: number
  readonly settleTimeoutMs: number
  readonly viewport: { width: number; height: number } | null
  readerFor(): Promise<CdpIdentityReader>
  withTarget(base: Omit<Action, 'timestamp'>, target: CapturedElement | null): Omit<Action, 'timestamp'>
  describeTarget(verb: string, t: CapturedElement | null, fallback: string): string
  clickTarget(
    base: Omit<Action, 'timestamp'>,
    x: number,
    y: number,
    atDown?: PointerDownSnapshot | null,
  ): Promise<Omit<Action, 'timestamp'>>
  isSecretField(target: CapturedElement): boolean
  secretName(el: CapturedElement['identity'], url: string): string
  switchTo(next: Page): Promise<void>
}
