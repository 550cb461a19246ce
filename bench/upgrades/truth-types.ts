/**
 * The person-judged truth of bench/upgrades: for each target picked on release N, the control on release N+1 a
 * person who knows the app would call the same (same function), or "gone" when the function no longer exists.
 * Selectors are Playwright selectors (CSS, `:has-text()`, `text=`…); the bench checks that each matches exactly
 * one element on its side. "Ambiguous" targets are not written down at all (left out of the score).
 */
export type TruthAction = 'click' | 'type' | 'select'

export interface TruthStep {
  readonly act: TruthAction
  /** The target on release N. */
  readonly from: string
  /** Its counterpart on release N+1, or `gone`. */
  readonly to: string | 'gone'
  /** One line: why a person calls them the same control (or why the function is gone). */
  readonly why: string
  /** `type`: the text typed after clicking the field. */
  readonly text?: string
  /** `select`: the option label chosen on N (and on N+1). */
  readonly value?: string
}

export interface TruthPage {
  /** `ReleasePair.id` of @qa/wild-corpus. */
  readonly pair: string
  /** The page on release N (its counterpart page is the pair's). */
  readonly page: string
  readonly steps: readonly TruthStep[]
}

export const GONE = 'gone'
