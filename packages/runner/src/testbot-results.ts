/**
 * The agent shapes (`TestBotResults`, the hidden JSON) and the pure functions that build them from
 * run state. Browser-free and IO-free: the inspector page mirrors these shapes exactly.
 */

/** A suite's state. */
export type SuiteStatus = 'planned' | 'running' | 'done'

/** One step of a suite as agents read it (exactly these four keys). */
export interface TestBotStep {
  /** The model's action type (`click`, `type`, `key_press`, `navigate`, …), or `error` for a suite-level error. */
  action: string
  /** What the step does, e.g. `Click button "로그인"`. */
  detail: string
  passed: boolean
  error: string | null
  /**
   * A step that passed with a warning (warnings shown as warnings everywhere): why. Absent or null for
   * a clean pass and for a failure. `passed` stays true (pass/fail for agents), the Inspector shows WARNING.
   */
  warning?: string | null
}

/** `TestBotResults`. */
export interface TestBotResults {
  isRunning: boolean
  summary: { total: number; pass: number; fail: number }
  suites: Array<{ name: string; status: SuiteStatus; passed: boolean; steps: TestBotStep[] }>
}

/** One entry of the hidden `<pre id="testbot-results-json">`. */
export interface TestBotJsonEntry {
  name: string
  passed: boolean
  steps: TestBotStep[]
}

/** What the server knows about one suite: the seed fields plus where its report is. */
export interface SuiteResultState {
  name: string
  status: SuiteStatus
  passed: boolean
  steps: TestBotStep[]
}

/** `getResults()`: pass counts passed suites, fail counts finished suites that did not pass. */
export function buildTestBotResults(suites: readonly SuiteResultState[], isRunning: boolean): TestBotResults {
  return {
    isRunning,
    summary: {
      total: suites.length,
      pass: suites.filter((s) => s.passed).length,
      fail: suites.filter((s) => s.status === 'done' && !s.passed).length,
    },
    suites: suites.map((s) => ({
      name: s.name,
      status: s.status,
      passed: s.passed,
      steps: s.steps.map((step) => ({
        action: step.action,
        detail: step.detail,
        passed: step.passed,
        error: step.error || null,
      })),
    })),
  }
}

/** The finished suites, for the hidden JSON element. */
export function buildResultsJson(suites: readonly SuiteResultState[]): TestBotJsonEntry[] {
  return suites
    .filter((s) => s.status === 'done')
    .map((s) => ({
      name: s.name,
      passed: s.passed,
      steps: s.steps.map((st) => ({
        action: st.action,
        detail: st.detail,
        passed: st.passed,
        error: st.error || null,
      })),
    }))
}

/** The facts of one replayed step that decide its agent row. */
export interface StepFacts {
  actionType: string
  description: string
  /** The action ran (the element was found and the input sent). */
  success: boolean
  errorMessage?: string | null
  /** `pass` / `warning` / `fail` when the step was verified. */
  verdict?: 'pass' | 'warning' | 'fail' | null
  verdictReason?: string | null
}

/**
 * The agent `action` of a model action type: an `assert` step is an `expect` row (`data-testbot-action`);
 * every other type keeps its own name.
 */
export function testBotAction(actionType: string): string {
  return actionType === 'assert' ? 'expect' : actionType
}

/** One step row: passed unless the action did not run or its screen verdict is `fail`; the error says why. */
export function stepFromFacts(f: StepFacts): TestBotStep {
  const ran = f.success
  const verdictFailed = f.verdict === 'fail'
  const passed = ran && !verdictFailed
  let error: string | null = null
  if (!ran) error = f.errorMessage?.trim() || 'The step did not run.'
  else if (verdictFailed) error = f.verdictReason?.trim() || 'The screen after the step does not match the recording.'
  const step: TestBotStep = { action: testBotAction(f.actionType), detail: f.description, passed, error }
  if (passed && f.verdict === 'warning') step.warning = f.verdictReason?.trim() || 'The step passed with a warning.'
  return step
}

/** A suite-level failure (case unreadable, app down, crash) as one `error` step. */
export function errorStep(detail: string, message: string): TestBotStep {
  return { action: 'error', detail, passed: false, error: message }
}

/** `data-testbot-step-result`. */
export function stepResultAttr(step: TestBotStep | undefined): 'pass' | 'fail' | 'pending' {
  if (!step) return 'pending'
  return step.passed ? 'pass' : 'fail'
}
