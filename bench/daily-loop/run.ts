/**
 * Daily-loop benchmark: a tester's whole loop (record, replay --verify, read the report, accept, green again). Run from the repo root after `pnpm build`:
 *   node --import tsx bench/daily-loop/run.ts
 * Options: --only <flow,flow> (flow ids or substrings), --unchanged-only (the same build only), --json <file> (every
 * judged step), --keep (keep the cases and reports; their folder is printed), --verbose (every step, not only the
 * wrong ones).
 *
 * The loop a QA engineer lives in, on pages nobody here wrote (`@qa/wild-corpus`, served offline):
 *   1. record a flow BY HAND: `qa record web <url> --out case.json` in a visible Chromium on a virtual display of
 *      its own (Xvfb), driven by real X input (xdotool: the mouse travels, quick clicks, a person's pauses, typing
 *      right after clicking, Hangul pasted, a native dropdown opened and picked with the keyboard, a modal, a
 *      checkbox, assertions picked with the recorder's toolbar), stopped with Ctrl-C as a terminal sends it;
 *   2. (a) `qa replay case.json --url <unchanged page> --verify --json` — the same build;
 *   3. (b) the same on a changed build of the page: labels reworded, blocks moved (a banner on top, forms and cards
 *      shifted), restyled (another typeface, corners, colours): every target is still there;
 *   4. (c) `qa replay case.json --url <changed page> --verify --update-baselines` (accept the new look), then
 *      `qa replay … --verify` again on (b): green is the loop's outcome.
 * Judged per step by the page's own listeners (the corpus truth log: which element got each trusted event, the
 * field's value), never by qa's output: a false failure is a step truth says was right (its element got the
 * action, the value landed) with a failing verdict; a false pass is a step truth says was wrong or missing with a
 * passing verdict.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argv } from 'node:process'
import type { Browser, Locator, Page } from 'playwright-core'
import { openBrowser } from '@qa/recorder-cdp'
import { startXvfb } from '@qa/recorder-desktop'
import { createHandInput, type HandInput, probeToolbarLayout, startRecordingByHand } from '@qa/wild-corpus/hand-input'
import {
  askTruth,
  type CorpusServer,
  type CorpusVariant,
  type MutationOp,
  runCli,
  startCorpusServer,
  type TruthEvent,
} from '@qa/wild-corpus'

const flag = (name: string) => argv.includes(name)
const opt = (name: string): string | null => {
  const i = argv.indexOf(name)
  return i >= 0 ? (argv[i + 1] ?? null) : null
}
const VERBOSE = flag('--verbose')
const KEEP = flag('--keep')
/** `--unchanged-only`: record by hand and replay on the same build only (a CI slice of one page's false failures). */
const UNCHANGED_ONLY = flag('--unchanged-only')
/** `--cli <path>`: another build's qa.js (default: this checkout's). */
const CLI = resolve(opt('--cli') ?? 'apps/cli/bin/qa.js')
const CHROMIUM = process.env.QA_CHROMIUM ?? '/usr/bin/chromium'
const VIEWPORT = { width: 1280, height: 720 }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The changed build: reworded, moved, restyled. Every target of every flow is still on the page. */
const CHANGED: MutationOp[] = ['reworded-labels', 'layout-shift', 'restyled']

/** One thing the person does. `type` and `select` click the control first, as a person does. */
type Step =
  | { kind: 'click'; find: (p: Page) => Locator }
  | { kind: 'type'; find: (p: Page) => Locator; text: string }
  /** A native `<select>`: clicked open, then the next option picked with the Down key and Enter. */
  | { kind: 'select'; find: (p: Page) => Locator }
  /** `after`: the asserted element is shown by the steps before (a modal's title): it holds only if they were right. */
  | { kind: 'assert-visible' | 'assert-text'; find: (p: Page) => Locator; after?: boolean }

interface Flow {
  id: string
  kit: string
  page: string
  what: string
  steps: Step[]
}

export const FLOWS: Flow[] = [
  {
    id: 'sb-admin-login',
    kit: 'sb-admin',
    page: 'sb-admin/dist/login.html',
    what: 'type an e-mail right after clicking its field, tick "Remember Password", assert the heading',
    steps: [
      { kind: 'type', find: (p) => p.getByLabel('Email address'), text: 'qa@example.com' },
      { kind: 'click', find: (p) => p.getByRole('checkbox', { name: 'Remember Password' }) },
      { kind: 'assert-text', find: (p) => p.getByRole('heading', { name: 'Login' }) },
    ],
  },
  {
    id: 'stisla-dropdown',
    kit: 'stisla',
    page: 'stisla/bootstrap-dropdown.html',
    what: 'open a dropdown, pick "Action", assert a section heading is visible',
    steps: [
      { kind: 'click', find: (p) => p.locator('#dropdownMenuButton') },
      { kind: 'click', find: (p) => p.locator('#dropdownMenuButton + .dropdown-menu a').first() },
      { kind: 'assert-visible', find: (p) => p.getByRole('heading', { name: 'Simple', exact: true }) },
    ],
  },
  {
    id: 'sneat-modal',
    kit: 'sneat',
    page: 'sneat/html/ui-modals.html',
    what: 'open a modal, type a Hangul name into its field, assert its title is visible, close it',
    steps: [
      { kind: 'click', find: (p) => p.locator('[data-bs-target="#basicModal"]') },
      { kind: 'type', find: (p) => p.locator('#basicModal #nameBasic'), text: '김민지 QA' },
      { kind: 'assert-visible', find: (p) => p.locator('#basicModal .modal-title'), after: true },
      { kind: 'click', find: (p) => p.locator('#basicModal').getByRole('button', { name: 'Close' }).last() },
    ],
  },
  {
    id: 'sneat-inputs',
    kit: 'sneat',
    page: 'sneat/html/forms-basic-inputs.html',
    what: 'type into two fields, each right after clicking it, assert the page heading',
    steps: [
      { kind: 'type', find: (p) => p.locator('#defaultFormControlInput'), text: 'Jane Roe' },
      { kind: 'type', find: (p) => p.locator('#exampleFormControlInput1'), text: 'jane@example.com' },
      { kind: 'assert-visible', find: (p) => p.getByRole('heading', { name: 'Default', exact: true }) },
    ],
  },
  {
    id: 'gentelella-form',
    kit: 'gentelella',
    page: 'gentelella/dist/production/form.html',
    what: 'type a project name (Hangul), pick a client in a native dropdown, choose a radio, assert the title',
    steps: [
      { kind: 'type', find: (p) => p.locator('#projectName'), text: '사이트 개편 2026' },
      { kind: 'select', find: (p) => p.locator('#client') },
      { kind: 'click', find: (p) => p.locator('input[type=radio]').nth(1) },
      { kind: 'assert-text', find: (p) => p.getByRole('heading', { name: 'Forms', exact: true }) },
    ],
  },
  {
    id: 'material-sign-in',
    kit: 'material-dashboard',
    page: 'material-dashboard/pages/sign-in.html',
    what: 'type an e-mail, switch "Remember me" on, assert the heading',
    steps: [
      { kind: 'type', find: (p) => p.locator('input[type=email]'), text: 'qa@example.com' },
      { kind: 'click', find: (p) => p.locator('#rememberMe') },
      { kind: 'assert-text', find: (p) => p.getByRole('heading', { name: 'Sign in' }) },
    ],
  },
]

// ---------------------------------------------------------------------------------------------------------------
// Real X input on a display of our own

/** Seconds the live list of `qa record web` lagged behind the person's last step (when over 2.5 s). */
const lagged: number[] = []
/**
 * A person's hands: the mouse travels in a few moves, quick clicks with no hold and a pause, typing right after the
 * click (no pause before it), Hangul pasted as a person's IME would commit it. Its origin (where the page's viewport
 * (0, 0) is on the screen) is measured once with a window as the recorder opens it.
 */
let hand: HandInput

// ---------------------------------------------------------------------------------------------------------------
// Planning in a probe browser: where each target is, its truth id, its label

interface Planned {
  step: Step
  at: { x: number; y: number }
  truth: string
  label: string
}

/** What a person reads as the control's name: its aria-label, its text, its labels, its title or placeholder. */
const labelIn = (el: Element): string =>
  [
    el.getAttribute('aria-label') ?? '',
    el.textContent ?? '',
    ...Array.from((el as HTMLInputElement).labels ?? []).map((l) => l.textContent ?? ''),
    el.getAttribute('title') ?? '',
    (el as HTMLInputElement).placeholder ?? '',
  ]
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()

async function plan(browser: Browser, url: string, flow: Flow): Promise<Planned[]> {
  const { page, close } = await openBrowser({ browser, viewport: VIEWPORT })
  try {
    await page.goto(url, { waitUntil: 'load' })
    const out: Planned[] = []
    for (const step of flow.steps) {
      const el = step.find(page)
      await el.waitFor({ state: 'visible', timeout: 10_000 })
      const box = await el.boundingBox()
      if (!box) throw new Error(`${flow.id}: a target is not visible in the probe page`)
      const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
      out.push({ step, at, truth: await el.evaluate(askTruth), label: await el.evaluate(labelIn) })
      // act in the probe too, so later targets (a menu, a modal) are where they will be
      if (step.kind === 'click' || step.kind === 'type' || step.kind === 'select') {
        await page.mouse.click(at.x, at.y)
        if (step.kind === 'type') await page.keyboard.type(step.text)
        if (step.kind === 'select') {
          await page.keyboard.press('Escape')
          await el.evaluate((s) => {
            const sel = s as HTMLSelectElement
            sel.selectedIndex = Math.min(sel.selectedIndex + 1, sel.options.length - 1)
          })
        }
        await page.waitForTimeout(600)
      }
    }
    return out
  } finally {
    await close()
  }
}

/** The label of each truth id on a page (a variant), read at load: what a person reads there. */
async function labelsOn(browser: Browser, url: string, truths: string[]): Promise<Map<string, string>> {
  const { page, close } = await openBrowser({ browser, viewport: VIEWPORT })
  try {
    await page.goto(url, { waitUntil: 'load' })
    const found = await page.evaluate(
      ({ wanted, labelSrc }) => {
        // biome-ignore lint/security/noGlobalEval: the label function is ours, serialised to run in the page
        const label = eval(`(${labelSrc})`) as (el: Element) => string
        const out: [string, string][] = []
        for (const el of Array.from(document.querySelectorAll('*'))) {
          const detail: { truth?: string } = {}
          el.dispatchEvent(new CustomEvent('qa-corpus-truth', { detail, bubbles: true, composed: true }))
          if (detail.truth && wanted.includes(detail.truth)) out.push([detail.truth, label(el)])
        }
        return out
      },
      { wanted: truths, labelSrc: String(labelIn) },
    )
    return new Map(found)
  } finally {
    await close()
  }
}

/** Where the recorder toolbar's buttons are: the same toolbar in a probe page of the same size. */
async function toolbarButtons(browser: Browser): Promise<Record<string, { x: number; y: number }>> {
  const { page, close } = await openBrowser({ browser, viewport: VIEWPORT })
  try {
    const { buttons, editor } = await probeToolbarLayout(page, 'Some text')
    return { ...buttons, ...(editor.Add ? { 'editor Add': editor.Add } : {}) }
  } finally {
    await close()
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Recording by hand

interface CaseAction {
  action_type: string
  description: string
  text?: string
  value?: string
  assertion?: { kind: string; op?: string; expected?: string }
  identity?: { ax_name?: string; text_content?: string }
}

async function recordByHand(
  work: string,
  url: string,
  steps: Planned[],
  toolbar: Record<string, { x: number; y: number }>,
  caseFile: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const rec = await startRecordingByHand(CLI, ['web', url, '--out', caseFile], {
    cwd: work,
    display: hand.display,
    maxWaitMs: 60_000,
  })
  const { child } = rec
  try {
    if (!rec.recording) throw new Error(`qa record web did not start: ${rec.stderr()}`)
    await sleep(1200) // a person looks at the page first
    for (const s of steps) {
      switch (s.step.kind) {
        case 'click':
          await hand.clickAt(s.at, 1100)
          break
        case 'type':
          await hand.clickAt(s.at, 150) // typing right after the click
          await hand.typeText(s.step.text)
          break
        case 'select':
          await hand.clickAt(s.at, 700) // the native dropdown opens
          await hand.pressKey('Down', 400)
          await hand.pressKey('Return', 1000)
          break
        case 'assert-visible':
        case 'assert-text': {
          const mode = s.step.kind === 'assert-visible' ? 'Assert visible' : 'Assert text'
          const button = toolbar[mode]
          if (!button) throw new Error(`the recorder toolbar has no "${mode}" button: ${Object.keys(toolbar)}`)
          await hand.clickAt(button, 600)
          await hand.clickAt(s.at, 1000)
          // the text editor opens with the element's text: the person adds it as it is (its Add button; a page's
          // modal may hold the keyboard focus, so not Enter)
          if (s.step.kind === 'assert-text') {
            const add = toolbar['editor Add']
            if (!add) throw new Error(`the recorder toolbar's text editor has no "Add" button: ${Object.keys(toolbar)}`)
            await hand.clickAt(add, 900)
          }
          break
        }
      }
    }
    // the person looks at the live list in the terminal: once it shows their last step (or after 15 s), Ctrl-C
    const clicks = steps.filter((x) => x.step.kind !== 'assert-visible' && x.step.kind !== 'assert-text').length
    const asserts = steps.length - clicks
    const listed = (re: RegExp) =>
      rec
        .stdout()
        .split('\n')
        .filter((l) => re.test(l)).length
    const t0 = Date.now()
    await sleep(800)
    while (Date.now() - t0 < 15_000 && (listed(/^ {2}\d+\. Click /) < clicks || listed(/^ {2}\d+\. Assert /) < asserts))
      await sleep(200)
    if (Date.now() - t0 > 2500) lagged.push(Math.round((Date.now() - t0) / 100) / 10)
    rec.interrupt()
    return { code: await rec.exited, stdout: rec.stdout(), stderr: rec.stderr() }
  } finally {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {}
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Judging

/** What truth expects of one recorded action. */
type Expect =
  | { kind: 'click'; truth: string }
  | { kind: 'type'; truth: string; value: string }
  | { kind: 'select'; truth: string; value: string }
  /** `misrecorded`: the case asserts on another element than the one the person picked (its name is not theirs). */
  | { kind: 'assert'; truth: string; text?: string; after: boolean; misrecorded: boolean }
  | { kind: 'other' }

/** Pairs the recorded actions with what the person meant (the plan), in order. */
function expectations(actions: CaseAction[], steps: Planned[], recorded: readonly TruthEvent[]): Expect[] | string {
  const clicks = steps.filter((s) => s.step.kind === 'click' || s.step.kind === 'type' || s.step.kind === 'select')
  const asserts = steps.filter((s) => s.step.kind === 'assert-visible' || s.step.kind === 'assert-text')
  let lastClicked = ''
  const out: Expect[] = []
  for (const a of actions) {
    if (a.action_type === 'click') {
      const c = clicks.shift()
      if (!c) return `an extra click was recorded: ${a.description}`
      lastClicked = c.truth
      out.push({ kind: 'click', truth: c.truth })
    } else if (a.action_type === 'type') out.push({ kind: 'type', truth: lastClicked, value: a.text ?? '' })
    else if (a.action_type === 'select') {
      // the option's value as the page saw the person pick it (the case keeps its label)
      const picked = recorded.filter((x) => x.kind === 'change' && x.truth === lastClicked).at(-1)
      out.push({ kind: 'select', truth: lastClicked, value: picked?.value ?? a.value ?? '' })
    } else if (a.action_type === 'assert') {
      const s = asserts.shift()
      if (!s) return `an extra assertion was recorded: ${a.description}`
      const after = s.step.kind !== 'click' && 'after' in s.step && s.step.after === true
      const norm = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase()
      const named = norm(a.identity?.ax_name || a.identity?.text_content || '')
      out.push({
        kind: 'assert',
        truth: s.truth,
        after,
        misrecorded: named === '' || !norm(s.label).includes(named),
        ...(a.assertion?.expected ? { text: a.assertion.expected } : {}),
      })
    } else out.push({ kind: 'other' })
  }
  if (clicks.length > 0 || asserts.length > 0)
    return `the case misses ${clicks.length} click(s) and ${asserts.length} assertion(s) the person made`
  return out
}

type Truth = 'right' | 'wrong' | 'missing' | 'n/a'

/**
 * Truth per action from the page's own events of one replay. Clicks consume the pointerdowns in order (a click
 * whose pointerdown is one a later step meant is missing, not wrong); typing and selection look for the value
 * landing in the intended field; an assertion is right when the page is in the state the person put it in (every
 * step before it right by truth) and its element still says what was recorded (labels read on the variant).
 */
function judge(exp: Expect[], events: readonly TruthEvent[], labels: Map<string, string>): Truth[] {
  const downs = events.filter((e) => e.kind === 'pointerdown')
  let cursor = 0
  const out: Truth[] = []
  const laterClicks = (k: number) => exp.slice(k + 1).flatMap((e) => (e.kind === 'click' ? [e.truth] : []))
  for (const [k, e] of exp.entries()) {
    if (e.kind === 'click') {
      const d = downs[cursor]
      if (!d) {
        out.push('missing')
        continue
      }
      // the events from this pointerdown to the next: a click on a label that forwards to the intended input
      // (the browser's own click and change on it) reached it
      const next = downs[cursor + 1]
      const from = events.indexOf(d)
      const to = next ? events.indexOf(next) : events.length
      const reached = events.slice(from, to).some((x) => x.chain.includes(e.truth))
      if (reached) {
        cursor++
        out.push('right')
        continue
      }
      if (laterClicks(k).some((t) => d.chain.includes(t))) {
        out.push('missing')
        continue
      }
      cursor++
      out.push('wrong')
      continue
    }
    if (e.kind === 'type' || e.kind === 'select') {
      const kinds = e.kind === 'type' ? ['input'] : ['change', 'untrusted-change']
      const mine = events.filter((x) => kinds.includes(x.kind) && x.truth === e.truth)
      if (mine.some((x) => x.value === e.value || (e.kind === 'type' && x.value?.endsWith(e.value)))) {
        out.push('right')
        continue
      }
      const elsewhere = events.some((x) => kinds.includes(x.kind) && x.truth !== e.truth && x.value === e.value)
      out.push(elsewhere ? 'wrong' : 'missing')
      continue
    }
    if (e.kind === 'assert') {
      const before = !e.after || out.every((t) => t === 'right' || t === 'n/a')
      const label = labels.get(e.truth)
      const holds = label !== undefined && (e.text === undefined || label.includes(e.text.trim()))
      out.push(before && holds && !e.misrecorded ? 'right' : 'wrong')
      continue
    }
    out.push('n/a')
  }
  return out
}

interface ReportJson {
  replay_results: {
    action_index?: number | null
    success: boolean
    method: string
    error_message?: string
    healed?: boolean
    strategies_tried?: { strategy: string; outcome: string }[] | null
  }[]
  verification_results?: { action_index: number; final_result: string; reason?: string | null }[]
}

interface StepVerdict {
  verdict: 'pass' | 'fail' | 'warning' | 'not run'
  healed: boolean
  why: string
}

function verdicts(report: ReportJson, n: number): StepVerdict[] {
  return Array.from({ length: n }, (_, k) => {
    const r = report.replay_results.find((x, i) => (x.action_index ?? i) === k)
    const v = report.verification_results?.find((x) => x.action_index === k)
    if (!r) return { verdict: 'not run', healed: false, why: '' }
    // the first strategy the recorded identity allowed (a skipped one had nothing recorded to try)
    const first = r.strategies_tried?.find((x) => x.outcome !== 'skipped')
    const healed = r.healed ?? (!!first && r.success && !(first.outcome === 'matched' && first.strategy === r.method))
    const verdict =
      !r.success || v?.final_result === 'fail' ? 'fail' : v?.final_result === 'warning' ? 'warning' : 'pass'
    return { verdict, healed, why: (r.error_message || v?.reason || '').replace(/\s+/g, ' ').slice(0, 200) }
  })
}

// ---------------------------------------------------------------------------------------------------------------

export interface Row {
  flow: string
  kit: string
  page: string
  phase: 'unchanged' | 'changed' | 'accept' | 'after-accept'
  step: number
  action: string
  description: string
  truth: Truth
  verdict: StepVerdict['verdict']
  healed: boolean
  /** The target's label differs on the changed page: locating it as recorded cannot work, a heal is needed. */
  needsHeal: boolean
  falseFailure: boolean
  falsePass: boolean
  why: string
}

export interface CaseOutcome {
  flow: string
  phase: Row['phase']
  code: number
  green: boolean
  seconds: number
  /** The command's last words on stderr when it did not exit 0. */
  said?: string
}

async function main(): Promise<void> {
  const only = opt('--only')?.split(',') ?? null
  const flows = only ? FLOWS.filter((f) => only.some((o) => f.id.includes(o))) : FLOWS
  if (flows.length === 0) {
    console.error(`--only ${opt('--only')}: no flow matches; flows: ${FLOWS.map((f) => f.id).join(', ')}`)
    process.exit(2)
  }
  const jsonOut = opt('--json')
  const started = Date.now()
  const work = await mkdtemp(join(tmpdir(), 'qa-daily-loop-'))
  const xvfb = await startXvfb({ width: 1400, height: 1000 })
  hand = createHandInput({
    display: xvfb.display,
    travel: { stepMs: 40 },
    clickPauseMs: 900,
    typeDelayMs: 70,
    pasteMs: 300,
    afterTypingMs: 1000,
    keyPauseMs: 800,
  })
  process.env.DISPLAY = xvfb.display
  const probe = (await openBrowser({ executablePath: CHROMIUM })).browser
  const corpus: CorpusServer = await startCorpusServer()
  const rows: Row[] = []
  const cases: CaseOutcome[] = []
  const notes: string[] = []
  const help = await runCli(CLI, ['replay', '--help'], work)
  const canAccept = /--update-baselines/.test(help.stdout + help.stderr)
  try {
    // calibrate: a headed window as the recorder opens it, clicked by X
    const w = await openBrowser({ headless: false, executablePath: CHROMIUM, handleSignals: false })
    try {
      await hand.measureOrigin(w.page)
    } finally {
      await w.close()
    }
    const toolbar = await toolbarButtons(probe)

    for (const flow of flows) {
      const dir = join(work, flow.id)
      await mkdir(dir, { recursive: true })
      let steps: Planned[]
      try {
        steps = await plan(probe, corpus.pageUrl(flow.page), flow)
      } catch (e) {
        notes.push(`${flow.id}: the plan failed in the probe browser: ${(e as Error).message.split('\n')[0]}`)
        continue
      }
      // record by hand on a listener of its own (its own truth log); a second take when the first went wrong,
      // each wrong take noted (the person missed: the page says so; or the case misses what the page saw)
      const caseFile = join(dir, 'case.json')
      let actions: CaseAction[] = []
      let exp: Expect[] | string = 'not recorded'
      for (let take = 1; take <= 2 && typeof exp === 'string'; take++) {
        await rm(caseFile, { force: true })
        await rm(caseFile.replace(/\.json$/, ''), { recursive: true, force: true })
        const recVariant = await corpus.variant({ ops: [], name: `hand-${flow.id}-${take}` })
        const t0 = Date.now()
        const rec = await recordByHand(dir, recVariant.pageUrl(flow.page), steps, toolbar, caseFile)
        await sleep(300)
        const recEvents = [...recVariant.truth.events()]
        await recVariant.close()
        const recDowns = recEvents.filter((e) => e.kind === 'pointerdown')
        await writeFile(
          join(dir, `record-${take}.log`),
          `${rec.stdout}\n--- stderr\n${rec.stderr}\n--- truth\n${recEvents
            .map((e) => `${e.kind} ${e.truth} "${e.label}" ${e.value ?? ''}`)
            .join('\n')}\n`,
        )
        const recordSeconds = (Date.now() - t0) / 1000
        if (rec.code !== 0) {
          exp = `qa record web exited ${rec.code}: ${rec.stderr.slice(-300)}`
          notes.push(`${flow.id} take ${take}: ${exp}`)
          continue
        }
        actions = (JSON.parse(await readFile(caseFile, 'utf8')) as { actions: CaseAction[] }).actions
        console.log(
          `\n${flow.id} (${flow.page}) take ${take}: recorded by hand in ${recordSeconds.toFixed(0)} s, ${actions.length} steps: ${actions.map((a) => a.action_type).join(', ')}`,
        )
        // the record check: the person's clicks reached the intended elements (the page says so)
        const planned = steps.filter(
          (s) => s.step.kind === 'click' || s.step.kind === 'type' || s.step.kind === 'select',
        )
        const reached = (k: number, truth: string) => {
          const d = recDowns[k]
          if (!d) return false
          const to = recDowns[k + 1] ? recEvents.indexOf(recDowns[k + 1] as TruthEvent) : recEvents.length
          return recEvents.slice(recEvents.indexOf(d), to).some((x) => x.chain.includes(truth))
        }
        const missed = planned.filter((s, k) => !reached(k, s.truth))
        if (missed.length > 0 || recDowns.length !== planned.length) {
          exp = `record check: the page saw ${recDowns.length} pointerdown(s) for ${planned.length} planned click(s); off target: ${missed.map((m) => m.label.slice(0, 30)).join(', ')}`
        } else {
          exp = expectations(actions, steps, recEvents)
          if (typeof exp === 'string') exp = `the page saw every click, but the case does not match: ${exp}`
        }
        if (typeof exp === 'string') {
          notes.push(`${flow.id} take ${take}: ${exp}`)
          console.log(`  ${exp}`)
        }
      }
      if (typeof exp === 'string') continue
      const expected = exp
      expected.forEach((e, k) => {
        if (e.kind === 'assert' && e.misrecorded)
          notes.push(
            `${flow.id} step ${k + 1}: the person picked "${steps.find((s) => s.truth === e.truth)?.label.slice(0, 40)}" to assert on; the case asserts ${actions[k]?.description} (judged wrong in every phase)`,
          )
      })
      const truthIds = [...new Set(expected.flatMap((e) => ('truth' in e ? [e.truth] : [])))]
      const unchangedLabels = await labelsOn(probe, corpus.pageUrl(flow.page), truthIds)

      const replayOn = async (
        phase: Row['phase'],
        file: string,
        variant: CorpusVariant,
        labels: Map<string, string>,
        extra: string[] = [],
      ) => {
        const reportDir = join(dir, `report-${phase}`)
        const t = Date.now()
        const r = await runCli(
          CLI,
          [
            'replay',
            file,
            '--url',
            variant.pageUrl(flow.page),
            '--verify',
            '--report-dir',
            reportDir,
            '--json',
            ...extra,
          ],
          dir,
        )
        const seconds = (Date.now() - t) / 1000
        await sleep(300)
        let report: ReportJson
        try {
          report = JSON.parse(r.stdout) as ReportJson
        } catch {
          notes.push(`${flow.id} ${phase}: no report JSON (exit ${r.code}): ${r.stderr.slice(-400)}`)
          cases.push({ flow: flow.id, phase, code: r.code, green: false, seconds, said: r.stderr.slice(-300) })
          return
        }
        const truths = judge(expected, variant.truth.events(), labels)
        const vs = verdicts(report, actions.length)
        actions.forEach((a, k) => {
          const t = truths[k] as Truth
          const v = vs[k] as StepVerdict
          const e = expected[k] as Expect
          const passed = v.verdict === 'pass' || v.verdict === 'warning'
          // after acceptance the case's baseline is the changed build: nothing is left to heal
          const needsHeal =
            phase !== 'after-accept' && 'truth' in e && unchangedLabels.get(e.truth) !== undefined
              ? unchangedLabels.get(e.truth) !== labels.get(e.truth)
              : false
          rows.push({
            flow: flow.id,
            kit: flow.kit,
            page: flow.page,
            phase,
            step: k + 1,
            action: a.action_type,
            description: a.description,
            truth: t,
            verdict: v.verdict,
            healed: v.healed,
            needsHeal,
            falseFailure: t === 'right' && !passed,
            falsePass: (t === 'wrong' || t === 'missing') && passed,
            why: v.why,
          })
        })
        const said = r.code === 0 ? undefined : r.stderr.trim().split('\n').slice(-3).join(' ').slice(-300)
        cases.push({ flow: flow.id, phase, code: r.code, green: r.code === 0, seconds, ...(said ? { said } : {}) })
        if (said && (VERBOSE || phase === 'accept' || phase === 'after-accept')) console.log(`    qa said: ${said}`)
        const mine = rows.filter((x) => x.flow === flow.id && x.phase === phase)
        console.log(
          `  ${phase.padEnd(12)} exit ${r.code} ${r.code === 0 ? 'GREEN' : 'RED  '} ${seconds.toFixed(0).padStart(3)} s  ` +
            `false failures ${mine.filter((x) => x.falseFailure).length}, false passes ${mine.filter((x) => x.falsePass).length}, ` +
            `healed ${mine.filter((x) => x.healed).length}/${mine.filter((x) => x.needsHeal).length} needing a heal`,
        )
        for (const x of mine)
          if (VERBOSE || x.falseFailure || x.falsePass || (x.needsHeal && x.truth === 'right' && !x.healed))
            console.log(
              `    ${String(x.step).padStart(2)}. ${x.verdict.padEnd(7)} truth ${x.truth.padEnd(7)}${x.healed ? ' healed' : ''}${x.needsHeal ? ' (needs heal)' : ''} ${x.description.slice(0, 70)}${x.why ? ` — ${x.why}` : ''}`,
            )
      }

      // (a) the same build
      const same = await corpus.variant({ ops: [], name: `same-${flow.id}` })
      await replayOn('unchanged', caseFile, same, unchangedLabels)
      await same.close()
      if (UNCHANGED_ONLY) {
        if (jsonOut) await writeFile(jsonOut, JSON.stringify(rows, null, 1))
        continue
      }
      // (b) the changed build
      const changed = await corpus.variant({ ops: CHANGED, name: `changed-${flow.id}` })
      const changedLabels = await labelsOn(probe, changed.pageUrl(flow.page), truthIds)
      await replayOn('changed', caseFile, changed, changedLabels)
      changed.truth.clear()
      // (c) accept the new look on the changed build, then replay there again (on a copy: the recording stays)
      if (canAccept) {
        const accepted = join(dir, 'accepted.json')
        await cp(caseFile, accepted)
        await cp(caseFile.replace(/\.json$/, ''), accepted.replace(/\.json$/, ''), { recursive: true }).catch(
          () => undefined,
        )
        // the case refers to its screenshots by path relative to itself: the copy must point at its own folder
        const doc = await readFile(accepted, 'utf8')
        await writeFile(accepted, doc.replaceAll('"case/', '"accepted/'))
        await replayOn('accept', accepted, changed, changedLabels, ['--update-baselines'])
        changed.truth.clear()
        await replayOn('after-accept', accepted, changed, changedLabels)
      } else console.log('  accept       not available: this build of qa replay has no --update-baselines')
      await changed.close()
      if (jsonOut) await writeFile(jsonOut, JSON.stringify(rows, null, 1))
    }
  } finally {
    await corpus.close()
    await probe.close()
    await xvfb.stop()
    if (KEEP) console.log(`\nCases and reports kept in ${work}`)
    else await rm(work, { recursive: true, force: true })
  }

  // ---- summary ----
  const of = (phase: Row['phase']) => rows.filter((r) => r.phase === phase)
  const casesOf = (phase: Row['phase']) => cases.filter((c) => c.phase === phase)
  console.log(`\nDaily loop — ${flows.length} flows recorded by hand, ${new Set(flows.map((f) => f.kit)).size} kits`)
  for (const phase of ['unchanged', 'changed', 'accept', 'after-accept'] as const) {
    const r = of(phase)
    const c = casesOf(phase)
    if (c.length === 0) {
      console.log(`  ${phase.padEnd(13)} not available${canAccept ? '' : ' (no --update-baselines in this build)'}`)
      continue
    }
    const heal = r.filter((x) => x.needsHeal && x.truth === 'right')
    console.log(
      `  ${phase.padEnd(13)} steps ${String(r.length).padStart(3)}  truth right ${r.filter((x) => x.truth === 'right').length}` +
        `  false failures ${r.filter((x) => x.falseFailure).length}  false passes ${r.filter((x) => x.falsePass).length}` +
        `  warnings ${r.filter((x) => x.verdict === 'warning').length}` +
        `  rightly healed reported healed ${heal.filter((x) => x.healed).length}/${heal.length}` +
        `  needed a heal, not found ${r.filter((x) => x.needsHeal && x.truth === 'missing').length}` +
        `  green cases ${c.filter((x) => x.green).length}/${c.length}`,
    )
  }
  for (const n of notes) console.log(`  note: ${n}`)
  if (lagged.length > 0)
    console.log(`  note: the recorder's live list lagged behind the person by ${lagged.join(', ')} s before Ctrl-C`)
  console.log(`Total ${((Date.now() - started) / 1000).toFixed(0)} s`)
  if (jsonOut) await writeFile(jsonOut, JSON.stringify(rows, null, 1))
  if (opt('--cases-json')) await writeFile(opt('--cases-json') as string, JSON.stringify({ cases, notes }, null, 1))
}

await main()
