import type { Action, AssertionCheck, ReplayMethod } from '@qa/model'
import type { HealedIdentity, LocatedTarget, ReplayPage, ReplayPageStep, StepStartOptions } from './replay-page'

/** What one step does on a `fakeReplayPage`, in the order the loop starts the steps. */
export interface FakeStepScript {
  /** The screen (PNG) after the step ran; default: the screen stays as it was. */
  screen?: Uint8Array
  /** How the step's target was located (`run` returns it); default none. */
  located?: LocatedTarget | null
  /** The method `run` writes into the result, as a real page does (default `none`). */
  method?: ReplayMethod
  /** A warning `run` writes into the result (a step replayed by coordinates, …). */
  warning?: string
  /** `run` throws an error with this message: the step could not run. */
  fails?: string
  /** The browser is lost during this step (`run` throws, and from now `lost()` says this). */
  crashes?: string
  /**
   * The screen (PNG) once the step scrolled its target into view, before its input (`onScrolledIntoView` is
   * called then); `screen` is the one after the input.
   */
  scrolledScreen?: Uint8Array
  /** The step made the page navigate / start requests. */
  navigates?: boolean
  requests?: boolean
  /** A dialog opened during the step. */
  dialogOpens?: boolean
  /** An assert step's check. */
  assertion?: AssertionCheck | null
  /** The live identity of the element the step healed to. */
  healedIdentity?: HealedIdentity | null
}

export interface FakeReplayPageOptions {
  /** The screen (PNG) once the start URL is open. */
  screen: Uint8Array
  steps: readonly FakeStepScript[]
  /** `open` throws this message (an unreachable start URL). */
  openFails?: string
}

/** A `ReplayPage` that plays a script, and a log of what was asked of it. */
export interface FakeReplayPage extends ReplayPage {
  /**
   * Every call, in order: `open <url>`, `settle`, `screenshot`, `start <i>`, `run <i>`, `idle <i>`, `end <i>`,
   * `dispose`.
   */
  readonly log: readonly string[]
}

/**
 * A fake browser page for the replay loop (`replayOnPage`): no browser, each step as the script says. Lets the
 * loop's settling, verdicts, failure paths and bookkeeping be tested with no Chromium (the real adapter is
 * `playwrightReplayPage`).
 */
export function fakeReplayPage(opts: FakeReplayPageOptions): FakeReplayPage {
  const log: string[] = []
  let screen = opts.screen
  let lost: string | null = null
  let next = 0
  return {
    log,
    async open(url) {
      log.push(`open ${url}`)
      if (opts.openFails) throw new Error(opts.openFails)
    },
    async settle(o) {
      log.push(o?.finiteAnimations === false ? 'settle (animations fast-forwarded)' : 'settle')
    },
    async domLoaded() {
      log.push('dom-loaded')
    },
    async screenshot() {
      log.push('screenshot')
      if (lost) throw new Error(`Target page, context or browser has been closed (${lost})`)
      return screen
    },
    lost: () => lost,
    checkLost: async () => lost,
    gone: () => lost !== null,
    async fingerprint() {
      // the screen's bytes stand for the page: a step that changes nothing leaves the same fingerprint
      let h = 2166136261
      for (const b of screen) h = Math.imul(h ^ b, 16777619)
      return `${screen.length}:${h >>> 0}`
    },
    startStep(_action: Action, stepOpts?: StepStartOptions): ReplayPageStep {
      const index = next++
      const script = opts.steps[index] ?? {}
      log.push(`start ${index}${stepOpts?.quick ? ' quick' : ''}`)
      let ran = false
      return {
        get assertion() {
          return ran ? (script.assertion ?? null) : null
        },
        get healedIdentity() {
          return ran ? (script.healedIdentity ?? null) : null
        },
        async run(result) {
          log.push(`run ${index}`)
          ran = true
          if (script.method) result.method = script.method
          if (script.warning) result.warning = script.warning
          if (script.crashes) {
            lost = script.crashes
            throw new Error('Target crashed')
          }
          if (script.fails) throw new Error(`${script.fails}\n  at a stack line the report must not show`)
          if (script.scrolledScreen) {
            screen = script.scrolledScreen
            log.push(`scrolled ${index}`)
            await stepOpts?.onScrolledIntoView?.()
          }
          if (script.screen) screen = script.screen
          return script.located ?? null
        },
        navigated: () => ran && script.navigates === true,
        requested: () => ran && script.requests === true,
        async requestsIdle() {
          log.push(`idle ${index}`)
        },
        end() {
          log.push(`end ${index}`)
          return { dialogSeen: ran && script.dialogOpens === true }
        },
      }
    },
    async dispose() {
      log.push('dispose')
    },
  }
}
