/**
 * Wild benchmark: pages nobody here wrote, changed by operators in the page. Run from the repo root after `pnpm build`:
 *   node --import tsx bench/wild/run.ts
 * Options: --workers N (parallel page×variant tasks, default 2), --only <substring,substring> (pages),
 * --variants <name,name>, --max-steps N (per page, default 7), --verbose (every step of ours), --json <file>.
 *
 * Pages nobody here wrote (`@qa/wild-corpus`: admin templates, UI kits, React SPAs from npm, served offline).
 * Per page the harness picks targets automatically from every kind of visible interactive element, checks
 * each by clicking it in its own browser (the page's ground truth must name it), writes steps.json and records
 * it with the documented CLI exactly as a user types it:
 *   node apps/cli/bin/qa.js record web <url> --script steps.json --out <dir>/case.json
 * then replays it on every mutation variant (each on its own port, same paths):
 *   node apps/cli/bin/qa.js replay <dir>/case.json --url <variant page url> --json
 * Baselines run in this process with playwright-core on the same variant pages: raw coordinates, a
 * Selenium-IDE-style chain (#id → stored CSS → stored XPath, first that matches anything wins) and a
 * Playwright-codegen-style chain (test id → role+name → text → CSS, each must match exactly one).
 * Judged by the page's ground truth (trusted events, truth ids the tools cannot see): right (the intended
 * element got the click/input), wrong (another element), nothing (no event). Removal: right = nothing.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argv } from 'node:process'
import type { Browser, Page } from 'playwright-core'
import { openBrowser } from '@qa/recorder-cdp'
import { codegenChain, firstMatching } from './baselines.js'
import {
  type CorpusPage,
  type CorpusServer,
  type MutationOp,
  runCli,
  inPageOrder,
  startCorpusServer,
  type TruthEvent,
} from '@qa/wild-corpus'

const flag = (name: string) => argv.includes(name)
const opt = (name: string): string | null => {
  const i = argv.indexOf(name)
  return i >= 0 ? (argv[i + 1] ?? null) : null
}
const WORKERS = Math.max(1, Number(opt('--workers') ?? 2))
const MAX_STEPS = Math.max(1, Number(opt('--max-steps') ?? 7))
const VERBOSE = flag('--verbose')
const CLI = resolve('apps/cli/bin/qa.js')
const VIEWPORT = { width: 1280, height: 720 }

interface Variant {
  name: string
  ops: MutationOp[]
  kind: 'unchanged' | 'single' | 'combination' | 'removal'
}
const ALL_VARIANTS: Variant[] = [
  { name: 'unchanged', ops: [], kind: 'unchanged' },
  { name: 'renamed-ids', ops: ['renamed-ids'], kind: 'single' },
  { name: 'renamed-classes', ops: ['renamed-classes'], kind: 'single' },
  { name: 'extra-wrappers', ops: ['extra-wrappers'], kind: 'single' },
  { name: 'layout-shift', ops: ['layout-shift'], kind: 'single' },
  { name: 'reworded-labels', ops: ['reworded-labels'], kind: 'single' },
  { name: 'tag-changes', ops: ['tag-changes'], kind: 'single' },
  { name: 'decoy-siblings', ops: ['decoy-siblings'], kind: 'single' },
  { name: 'reordered-siblings', ops: ['reordered-siblings'], kind: 'single' },
  {
    name: 'combination',
    ops: ['renamed-ids', 'renamed-classes', 'extra-wrappers', 'layout-shift', 'reworded-labels', 'decoy-siblings'],
    kind: 'combination',
  },
  { name: 'removal', ops: ['removal'], kind: 'removal' },
]
const VARIANTS = opt('--variants')
  ? ALL_VARIANTS.filter((v) => (opt('--variants') ?? '').split(',').includes(v.name))
  : ALL_VARIANTS

type Kind =
  | 'icon-button'
  | 'styled-check'
  | 'checkbox'
  | 'radio'
  | 'switch'
  | 'dropdown-toggle'
  | 'dropdown-item'
  | 'tab'
  | 'pagination'
  | 'text-field'
  | 'textarea'
  | 'select'
  | 'button'
  | 'nav-link'
  | 'link'
const KIND_ORDER: Kind[] = [
  'icon-button',
  'styled-check',
  'dropdown-toggle',
  'tab',
  'text-field',
  'switch',
  'checkbox',
  'pagination',
  'select',
  'radio',
  'textarea',
  'button',
  'nav-link',
  'link',
]

interface Candidate {
  i: number
  kind: Kind
  truth: string
  label: string
  navigates: boolean
  top: number
  height: number
  options?: string[]
}
/** One planned input: the script step(s) and the element that must receive it. */
interface Planned {
  kind: Kind
  truth: string
  label: string
  steps: Step[]
  /** Index of the judged step inside `steps` (a scroll may come first). */
  judged: number
  navigates: boolean
}
type Step =
  | { type: 'click'; x: number; y: number }
  | { type: 'type'; text: string }
  | { type: 'select'; x: number; y: number; value: string }
  | { type: 'scroll'; dy: number }

type Outcome = 'right' | 'wrong' | 'nothing'
type Approach = 'ours' | 'coords' | 'selenium' | 'codegen'
const APPROACHES: Approach[] = ['ours', 'coords', 'selenium', 'codegen']
/**
 * The oracle replays each step on the element the truth names (no tool could do better). A step it cannot do on
 * a variant is one the mutation itself made impossible (a React app that lost its nodes, a dropdown whose menu
 * is no longer its toggle's sibling); such steps are counted apart, not judged.
 */
type Runner = Exclude<Approach, 'ours'> | 'oracle'
/** `got` of the steps of a run the harness itself could not carry out. */
const HARNESS_ERROR = 'harness error'

/** A judged step of the recorded case: which action, which element, what kind of input. */
interface JudgedStep {
  action: number
  /** Index of the planned input it belongs to. */
  plan: number
  kind: Kind
  truth: string
  label: string
  input: 'pointer' | 'text' | 'select'
}
interface PageCase {
  page: CorpusPage
  dir: string
  caseFile: string
  actions: Record<string, unknown>[]
  judged: JudgedStep[]
  recordRight: number
  recordNotes: string[]
  nonInteractive: string[]
  /** Planned inputs the recorder's own click did not deliver to their element (the record check). */
  missedPlans: number[]
}
interface Row {
  page: string
  variant: string
  approach: Approach
  step: number
  action: number
  kind: Kind
  label: string
  outcome: Outcome
  got?: string
  method?: string
  recorded?: string
  /** false: the oracle could not do this step on this variant (the mutation broke the page); not judged. */
  possible?: boolean
  /** true: the harness itself failed on this task twice (a page that never loaded, a broken install); not judged. */
  harnessLost?: boolean
}

// ---------- target picking (in the harness's own page) ----------

/** Runs in the page: lists visible interactive elements with their kind; keeps them in window.__pick. */
const collect = (): Candidate[] => {
  const SEL =
    'a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=tab],[role=checkbox],[role=switch],[role=menuitem],.dropdown-item,.page-link,[data-bs-toggle],[data-toggle]'
  const seen = new Set<Element>()
  const picks: Element[] = []
  const out: Candidate[] = []
  const truthOf = (el: Element) => {
    const detail: { truth?: string } = {}
    el.dispatchEvent(new CustomEvent('qa-corpus-truth', { detail, bubbles: true, composed: true }))
    return detail.truth ?? ''
  }
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect()
    const s = getComputedStyle(el)
    return r.width >= 6 && r.height >= 6 && s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.1
  }
  for (const el of Array.from(document.querySelectorAll(SEL))) {
    let target: Element = el
    let kind = ''
    const tag = el.tagName
    const input = el as HTMLInputElement
    if (tag === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) {
      const sw = el.closest('.form-switch, .custom-switch') || el.getAttribute('role') === 'switch'
      if (!shown(el)) {
        const label = input.labels?.[0]
        if (!label || !shown(label)) continue
        kind = 'styled-check'
      } else kind = sw ? 'switch' : input.type
    } else if (tag === 'INPUT') {
      if (!['text', 'email', 'search', 'number', 'tel', 'url', ''].includes(input.type)) continue
      kind = 'text-field'
    } else if (tag === 'TEXTAREA') kind = 'textarea'
    else if (tag === 'SELECT') {
      if ((el as HTMLSelectElement).multiple || (el as HTMLSelectElement).options.length < 2) continue
      kind = 'select'
    } else {
      const toggle = el.getAttribute('data-bs-toggle') ?? el.getAttribute('data-toggle') ?? ''
      // biome-ignore lint/performance/useDomNodeTextContent: visible text is what tells an icon-only control
      const text = (el as HTMLElement).innerText?.trim() ?? ''
      if (toggle === 'dropdown') kind = 'dropdown-toggle'
      else if (el.classList.contains('dropdown-item') || el.closest('.dropdown-menu')) kind = 'dropdown-item'
      else if (
        el.getAttribute('role') === 'tab' ||
        toggle === 'tab' ||
        toggle === 'pill' ||
        el.closest('.nav-tabs, .nav-pills')
      )
        kind = 'tab'
      else if (el.classList.contains('page-link') || el.closest('.pagination')) kind = 'pagination'
      else if (!text && el.querySelector('i, svg, img, [class*="icon"], .bx, .fa, .fas, .material-icons'))
        kind = 'icon-button'
      else if (el.closest('nav, .navbar, aside, .sidebar, .menu, .layout-menu, .sidenav, .sb-sidenav') && tag === 'A')
        kind = 'nav-link'
      else if (tag === 'BUTTON' || el.classList.contains('btn') || el.getAttribute('role') === 'button') kind = 'button'
      else if (tag === 'A') kind = 'link'
      else continue
    }
    if (kind === 'styled-check') target = input.labels?.[0] as Element
    if (seen.has(target) || !shown(target)) continue
    if (el.closest('[disabled], .disabled') || (el as HTMLButtonElement).disabled) continue
    const href = el.getAttribute('href') ?? ''
    if (/^(mailto|tel):/.test(href) || el.getAttribute('target') === '_blank') continue
    if (/^(https?:)?\/\//.test(href) && !href.startsWith(location.origin)) continue
    if (tag === 'INPUT' && (input.type === 'password' || input.readOnly)) continue
    const navigates =
      tag === 'A' &&
      href !== '' &&
      !href.startsWith('#') &&
      !href.startsWith('javascript') &&
      !el.hasAttribute('data-bs-toggle') &&
      !el.hasAttribute('data-toggle')
    const r = target.getBoundingClientRect()
    if (r.left < 0 || r.right > innerWidth) continue
    seen.add(target)
    picks.push(el, target)
    const label =
      // biome-ignore lint/performance/useDomNodeTextContent: the label a person sees
      ((target as HTMLElement).innerText || el.getAttribute('aria-label') || el.getAttribute('placeholder') || '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 40)
    const options =
      tag === 'SELECT' ? Array.from((el as HTMLSelectElement).options).map((o) => o.label.trim()) : undefined
    out.push({
      i: picks.length - 2,
      truth: truthOf(el),
      kind: kind as Kind,
      label,
      navigates,
      top: r.top + window.scrollY,
      height: r.height,
      ...(options ? { options } : {}),
    })
  }
  ;(window as unknown as { __pick: Element[] }).__pick = picks
  return out
}

/** Runs in the page: where the clickable part of pick i is now (viewport px), and whether it is on top there. */
const locatePick = (i: number) => {
  const picks = (window as unknown as { __pick: Element[] }).__pick
  const target = picks[i + 1] as Element
  const r = target.getBoundingClientRect()
  const x = Math.round(r.left + Math.min(r.width / 2, 40 + r.width / 4))
  const y = Math.round(r.top + r.height / 2)
  const hit = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? document.elementFromPoint(x, y) : null
  const onTop =
    !!hit && (target === hit || target.contains(hit) || (hit instanceof HTMLLabelElement && hit.control === picks[i]))
  return { x, y, top: r.top, height: r.height, onTop }
}

async function planPage(browser: Browser, corpus: CorpusServer, page: CorpusPage): Promise<Planned[]> {
  const v = await corpus.variant({ ops: [], name: `pick-${page.id}` })
  const session = await openBrowser({ browser, viewport: VIEWPORT })
  const p = session.page
  // tsx names functions with a helper the page does not have (functions passed to evaluate are serialised).
  await p.addInitScript('window.__name = (f) => f')
  const plan: Planned[] = []
  try {
    await p.goto(v.pageUrl(page), { waitUntil: 'load' })
    const used = new Set<string>()
    let kindCursor = 0
    let scrolled = false
    let forceDropdownItem = false
    for (let guard = 0; plan.length < MAX_STEPS && guard < 40; guard++) {
      const raw = await p.evaluate(collect)
      const cands: Candidate[] = []
      for (const c of raw) cands.push(c)
      const fresh = cands.filter((c) => !used.has(c.truth) && !c.truth.startsWith('decoy:'))
      const last = plan.length === MAX_STEPS - 1
      const pageScrollY = await p.evaluate(() => window.scrollY)
      const inView = (c: Candidate) => c.top - pageScrollY >= 0 && c.top - pageScrollY + c.height <= VIEWPORT.height
      let chosen: Candidate | undefined
      if (forceDropdownItem) chosen = fresh.find((c) => c.kind === 'dropdown-item' && !c.navigates && inView(c))
      forceDropdownItem = false
      for (let k = 0; !chosen && k < KIND_ORDER.length; k++) {
        const kind = KIND_ORDER[(kindCursor + k) % KIND_ORDER.length] as Kind
        const ofKind = fresh.filter((c) => c.kind === kind && (!c.navigates || last))
        chosen = ofKind.find(inView) ?? (!scrolled && plan.length >= 3 ? ofKind[0] : undefined)
        if (chosen) kindCursor = (kindCursor + k + 1) % KIND_ORDER.length
      }
      if (!chosen && !last) chosen = fresh.find((c) => c.navigates && inView(c) && c.kind !== 'link')
      if (!chosen) break
      used.add(chosen.truth)
      const steps: Step[] = []
      let where = await p.evaluate(locatePick, chosen.i)
      if (where.top < 0 || where.top + where.height > VIEWPORT.height) {
        const dy = Math.round(where.top - VIEWPORT.height / 2)
        await p.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2)
        await p.mouse.wheel(0, dy)
        await p.waitForTimeout(400)
        where = await p.evaluate(locatePick, chosen.i)
        steps.push({ type: 'scroll', dy })
        scrolled = true
      }
      if (!where.onTop || where.y < 0 || where.y >= VIEWPORT.height) continue
      const before = v.truth.events().length
      let ok = false
      if (chosen.kind === 'select') {
        const value = chosen.options?.[1] ?? ''
        const handle = await p.evaluateHandle(
          (i) => (window as unknown as { __pick: Element[] }).__pick[i] as Element,
          chosen.i,
        )
        await handle.asElement()?.selectOption({ label: value })
        await p.waitForTimeout(250)
        ok = v.truth
          .events()
          .slice(before)
          .some((e) => e.kind === 'change' && e.chain.includes(chosen.truth))
        steps.push({ type: 'select', x: where.x, y: where.y, value })
      } else {
        await p.mouse.click(where.x, where.y)
        await p.waitForTimeout(300)
        ok = v.truth
          .events()
          .slice(before)
          .some((e) => e.kind === 'click' && e.chain.includes(chosen.truth))
        steps.push({ type: 'click', x: where.x, y: where.y })
        if (ok && (chosen.kind === 'text-field' || chosen.kind === 'textarea')) {
          await p.keyboard.type('Wild 42')
          await p.waitForTimeout(150)
          steps.push({ type: 'type', text: 'Wild 42' })
        }
      }
      if (!ok) {
        // The harness's page now differs from a fresh one: replay the plan so far on a fresh load.
        await p.goto(v.pageUrl(page), { waitUntil: 'load' })
        for (const s of plan.flatMap((x) => x.steps)) {
          if (s.type === 'click') await p.mouse.click(s.x, s.y)
          else if (s.type === 'type') await p.keyboard.type(s.text)
          else if (s.type === 'scroll') {
            await p.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2)
            await p.mouse.wheel(0, s.dy)
          }
          await p.waitForTimeout(300)
        }
        continue
      }
      const judged = steps.findIndex((s) => s.type === 'click' || s.type === 'select')
      plan.push({
        kind: chosen.kind,
        truth: chosen.truth,
        label: chosen.label,
        steps,
        judged,
        navigates: chosen.navigates,
      })
      if (chosen.kind === 'dropdown-toggle') forceDropdownItem = true
      if (chosen.navigates || p.url().split('#')[0] !== v.pageUrl(page)) break
    }
  } finally {
    await session.close()
    await v.close()
  }
  return plan
}

// ---------- the CLI ----------

const run = (args: string[], cwd: string) => runCli(CLI, args, cwd)

// ---------- judging ----------

/**
 * Splits a run's truth events among the judged steps. The tool acts step by step and each pointer input starts
 * with exactly one trusted pointerdown, so the k-th pointerdown group belongs to the k-th step that clicked
 * (the report says which steps clicked); text and select input belong to the step whose window they fall in.
 */
function judgeRun(
  events: readonly TruthEvent[],
  judged: readonly JudgedStep[],
  clicked: readonly boolean[],
  removal: boolean,
): { outcome: Outcome; got?: string }[] {
  const groups: TruthEvent[][] = []
  const lead: TruthEvent[] = []
  for (const e of inPageOrder(events)) {
    if (e.kind === 'pointerdown') groups.push([e])
    else if (groups.length > 0) (groups[groups.length - 1] as TruthEvent[]).push(e)
    else lead.push(e)
  }
  let g = 0
  const window: TruthEvent[][] = judged.map(() => [])
  for (let k = 0; k < judged.length; k++) {
    if (clicked[k] && g < groups.length) {
      ;(window[k] as TruthEvent[]).push(...(groups[g] as TruthEvent[]))
      g++
    }
  }
  // Text and select steps: the events of the pointer group before them that are input/change (typing follows
  // the click on the field), plus leading events.
  const out: { outcome: Outcome; got?: string }[] = []
  for (let k = 0; k < judged.length; k++) {
    const step = judged[k] as JudgedStep
    let evs = window[k] as TruthEvent[]
    if (step.input === 'text' || step.input === 'select') {
      const prev = k > 0 ? (window[k - 1] as TruthEvent[]) : lead
      evs = [...evs, ...prev, ...(k === 0 ? [] : lead)].filter((e) => e.kind === 'input' || e.kind === 'change')
    }
    const relevant = evs.filter((e) =>
      step.input === 'pointer'
        ? e.kind === 'pointerdown' || e.kind === 'click'
        : e.kind === 'input' || e.kind === 'change',
    )
    if (relevant.length === 0) out.push({ outcome: removal ? 'right' : 'nothing' })
    else if (!removal && relevant.some((e) => e.chain.includes(step.truth))) out.push({ outcome: 'right' })
    else {
      const e = relevant[0] as TruthEvent
      out.push({ outcome: 'wrong', got: `${e.tag} "${e.label}" ${e.truth}` })
    }
  }
  return out
}

// ---------- record ----------

async function recordPage(
  corpus: CorpusServer,
  page: CorpusPage,
  plan: Planned[],
  root: string,
): Promise<PageCase | null> {
  const dir = join(root, page.id.replace(/[^\w.-]+/g, '_'))
  await rm(dir, { recursive: true, force: true }) // a second recording of the page starts afresh
  await mkdir(dir, { recursive: true })
  const steps = plan.flatMap((p) => p.steps)
  await writeFile(join(dir, 'steps.json'), `${JSON.stringify(steps, null, 2)}\n`)
  const v = await corpus.variant({ ops: [], name: `rec-${page.id}` })
  const caseFile = join(dir, 'case.json')
  const res = await run(['record', 'web', v.pageUrl(page), '--script', 'steps.json', '--out', caseFile], dir)
  await new Promise((r) => setTimeout(r, 300))
  const events = v.truth.events()
  await v.close()
  if (res.code !== 0) {
    console.log(`  ${page.id}: record failed (exit ${res.code}): ${(res.stderr || res.stdout).trim().split('\n')[0]}`)
    return null
  }
  const tc = JSON.parse(await readFile(caseFile, 'utf8')) as { actions: Record<string, unknown>[] }
  const actions = tc.actions
  const judged: JudgedStep[] = []
  const notes: string[] = []
  // Script steps map one to one onto recorded actions (a type after a click stays its own action).
  if (actions.length !== steps.length) notes.push(`${steps.length} steps recorded as ${actions.length} actions`)
  let a = 0
  for (const [pi, p] of plan.entries()) {
    for (let s = 0; s < p.steps.length; s++, a++) {
      const step = p.steps[s] as Step
      if (step.type === 'scroll') continue
      if (step.type === 'type') {
        judged.push({ action: a, plan: pi, kind: p.kind, truth: p.truth, label: p.label, input: 'text' })
        continue
      }
      judged.push({
        action: a,
        plan: pi,
        kind: p.kind,
        truth: p.truth,
        label: p.label,
        input: step.type === 'select' ? 'select' : 'pointer',
      })
    }
  }
  const clicked = judged.map((j) => j.input === 'pointer')
  const verdicts = judgeRun(events, judged, clicked, false)
  const nonInteractive: string[] = []
  for (const j of judged) {
    const act = actions[j.action] as Record<string, unknown> | undefined
    if (!act || j.input !== 'pointer') continue
    const id = act.identity as Record<string, unknown> | undefined
    const tag = String(id?.tag_name ?? '').toLowerCase()
    const box = id?.bounding_box as { width: number; height: number } | undefined
    const big = box ? box.width * box.height > 0.25 * VIEWPORT.width * VIEWPORT.height : false
    if (!id || tag === 'html' || tag === 'body' || big) {
      nonInteractive.push(
        `${page.id} action ${j.action} (${j.kind} "${j.label}"): recorded ${id ? `<${tag}> ${box ? `${Math.round(box.width)}×${Math.round(box.height)}` : ''}` : 'no identity'}`,
      )
    }
  }
  let right = 0
  const missedPlans = new Set<number>()
  verdicts.forEach((v, k) => {
    if (v.outcome === 'right') right++
    else missedPlans.add((judged[k] as JudgedStep).plan)
    if (v.outcome !== 'right')
      notes.push(
        `record check: step ${k} (${judged[k]?.kind} "${judged[k]?.label}") ${v.outcome}${v.got ? ` → ${v.got}` : ''}`,
      )
  })
  return {
    page,
    dir,
    caseFile,
    actions,
    judged,
    recordRight: right,
    recordNotes: notes,
    nonInteractive,
    missedPlans: [...missedPlans],
  }
}

// ---------- replay: ours through the CLI, baselines in-process ----------

function describeRecorded(act: Record<string, unknown> | undefined): string {
  const id = act?.identity as Record<string, unknown> | undefined
  if (!id) return 'no identity'
  const sel = act?.selectors as Record<string, unknown> | undefined
  return `<${String(id.tag_name ?? '?').toLowerCase()}> role=${id.ax_role ?? ''} name="${String(id.ax_name ?? '').slice(0, 30)}" css=${sel?.css ?? ''}`
}

async function replayOurs(pc: PageCase, url: string, truthEvents: () => readonly TruthEvent[], removal: boolean) {
  const reportDir = join(pc.dir, 'reports', String(Math.random()).slice(2))
  const res = await run(['replay', pc.caseFile, '--url', url, '--json', '--report-dir', reportDir], pc.dir)
  await new Promise((r) => setTimeout(r, 300))
  let results: Record<string, unknown>[] = []
  try {
    const out = JSON.parse(res.stdout) as Record<string, unknown>
    results = (out.replay_results ?? []) as Record<string, unknown>[]
  } catch {
    console.log(
      `  ${pc.page.id}: replay printed no JSON (exit ${res.code}): ${(res.stderr || res.stdout).trim().split('\n')[0]}`,
    )
  }
  const byAction = new Map<number, Record<string, unknown>>()
  results.forEach((r, k) => {
    byAction.set(Number(r.action_index ?? k), r)
  })
  const clicked = pc.judged.map((j) => {
    const r = byAction.get(j.action)
    if (r?.success !== true) return false
    const act = pc.actions[j.action] as Record<string, unknown>
    return j.input === 'pointer' || r.method === 'coordinate' || act.action_type === 'click'
  })
  const verdicts = judgeRun(truthEvents(), pc.judged, clicked, removal)
  return verdicts.map((v, k) => {
    const r = byAction.get((pc.judged[k] as JudgedStep).action)
    return { ...v, method: r ? `${String(r.method)}${r.success ? '' : ' (failed)'}` : 'no result' }
  })
}

/** The element the page's truth names `truth` (asked as the harness asks: an untrusted custom event). */
async function elementWithTruth(page: Page, truth: string) {
  const handle = await page.evaluateHandle((t) => {
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const detail: { truth?: string } = {}
      el.dispatchEvent(new CustomEvent('qa-corpus-truth', { detail, bubbles: true, composed: true }))
      if (detail.truth === t) return el
    }
    return null
  }, truth)
  return handle.asElement()
}

async function replayBaseline(
  browser: Browser,
  pc: PageCase,
  url: string,
  truthEvents: () => readonly TruthEvent[],
  approach: Runner,
  removal: boolean,
) {
  const out: { outcome: Outcome; got?: string }[] = []
  let session: Awaited<ReturnType<typeof openBrowser>> | undefined
  try {
    session = await openBrowser({ browser: await liveBrowser(browser), viewport: VIEWPORT })
    const p = session.page
    await p.addInitScript('window.__name = (f) => f')
    await p.goto(url, { waitUntil: 'load', timeout: 20_000 })
    const judgedAt = new Map(pc.judged.map((j, k) => [j.action, k]))
    const results: { outcome: Outcome; got?: string }[] = pc.judged.map(() => ({ outcome: 'nothing' as Outcome }))
    for (let a = 0; a < pc.actions.length; a++) {
      const act = pc.actions[a] as Record<string, unknown>
      const type = String(act.action_type)
      const before = truthEvents().length
      try {
        if (type === 'scroll') {
          await p.mouse.move(Number(act.x), Number(act.y))
          await p.mouse.wheel(Number(act.scroll_dx ?? 0), Number(act.scroll_dy ?? 0))
          await p.waitForTimeout(300)
          continue
        }
        if (approach === 'coords') {
          if (type === 'type') await p.keyboard.type(String(act.text ?? ''))
          else if (type === 'select') {
            const h = await p.evaluateHandle(({ x, y }) => document.elementFromPoint(x, y)?.closest('select') ?? null, {
              x: Number(act.x),
              y: Number(act.y),
            })
            const el = h.asElement()
            if (el) await el.selectOption({ label: String(act.value ?? '') }, { timeout: 1000 })
          } else await p.mouse.click(Number(act.x), Number(act.y))
        } else if (approach === 'oracle') {
          const k = judgedAt.get(a)
          const el = k === undefined ? null : await elementWithTruth(p, (pc.judged[k] as JudgedStep).truth)
          if (el) {
            if (type === 'type') await el.fill(String(act.text ?? ''), { timeout: 2000 })
            else if (type === 'select') await el.selectOption({ label: String(act.value ?? '') }, { timeout: 2000 })
            else await el.click({ timeout: 2000 }).catch(() => el.click({ force: true, timeout: 1000 }))
          }
        } else {
          const l = await (approach === 'selenium' ? firstMatching : codegenChain)(p, act)
          if (l) {
            if (type === 'type') await l.fill(String(act.text ?? ''), { timeout: 2000 })
            else if (type === 'select') await l.selectOption({ label: String(act.value ?? '') }, { timeout: 2000 })
            else await l.click({ timeout: 2000 })
          }
        }
      } catch {
        // a failed step is "nothing" unless the page saw input
      }
      await p.waitForTimeout(150)
      const k = judgedAt.get(a)
      if (k === undefined) continue
      const step = pc.judged[k] as JudgedStep
      const evs = truthEvents()
        .slice(before)
        .filter((e) =>
          step.input === 'pointer'
            ? e.kind === 'pointerdown' || e.kind === 'click'
            : e.kind === 'input' || e.kind === 'change',
        )
      if (evs.length === 0) results[k] = { outcome: removal ? 'right' : 'nothing' }
      else if (!removal && evs.some((e) => e.chain.includes(step.truth))) results[k] = { outcome: 'right' }
      else results[k] = { outcome: 'wrong', got: `${evs[0]?.tag} "${evs[0]?.label}"` }
      if (p.url().split('#')[0] !== url.split('#')[0]) {
        // navigated away: later steps (none planned after a navigating one) stay "nothing"
        break
      }
    }
    out.push(...results)
  } catch (e) {
    console.log(`  ${pc.page.id} ${approach}: ${(e as Error).message.split('\n')[0]}`)
    out.push(...pc.judged.map(() => ({ outcome: (removal ? 'right' : 'nothing') as Outcome, got: HARNESS_ERROR })))
  } finally {
    await session?.close()
  }
  return out
}

let relaunched: Browser | undefined
/** The shared browser, relaunched once it has gone away (a crash under load must not end a 20-minute run). */
async function liveBrowser(b: Browser): Promise<Browser> {
  if (b.isConnected()) return b
  if (relaunched?.isConnected()) return relaunched
  relaunched = (await openBrowser({ viewport: VIEWPORT })).browser
  return relaunched
}

async function pool<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T
        await fn(item)
      }
    }),
  )
}

// ---------- main ----------

const jsonOut = opt('--json')
const started = Date.now()
const corpus = await startCorpusServer()
const shared = await openBrowser({ viewport: VIEWPORT })
const browser = shared.browser
const only = opt('--only')?.split(',')
const pages = corpus.pages.filter((p) => !only || only.some((o) => p.id.includes(o)))
const root = await mkdtemp(join(tmpdir(), 'qa-wild-'))
const load0 = loadavg()[0] ?? 0
console.log(
  `wild corpus: ${pages.length} pages of ${new Set(pages.map((p) => p.kit)).size} kits, ${VARIANTS.length} variants, ${WORKERS} workers`,
)

// 1. plan + record
const cases: PageCase[] = []
let replanned = 0
await pool(pages, WORKERS, async (page) => {
  const plan = await planPage(browser, corpus, page).catch((e) => {
    console.log(`  ${page.id}: picking failed: ${(e as Error).message.split('\n')[0]}`)
    return [] as Planned[]
  })
  if (plan.length === 0) return
  let pc = await recordPage(corpus, page, plan, root)
  if (pc && pc.missedPlans.length > 0) {
    // The target was reachable in the harness's own run but not in the recorded sequence (a menu that closed
    // in between): the step tests the plan, not the tool. Drop it, record again, and say so.
    const kept = plan.filter((_, i) => !pc?.missedPlans.includes(i))
    console.log(
      `  ${page.id}: record check missed ${pc.recordNotes.filter((n) => n.startsWith('record check')).join('; ')} — re-recorded without it`,
    )
    replanned += plan.length - kept.length
    pc = kept.length > 0 ? await recordPage(corpus, page, kept, root) : null
  }
  if (!pc) return
  cases.push(pc)
  console.log(
    `  ${page.id}: ${pc.judged.length} steps [${plan.map((p) => p.kind).join(', ')}] record check ${pc.recordRight}/${pc.judged.length}`,
  )
  if (VERBOSE) for (const n of pc.recordNotes) console.log(`    ${n}`)
})
const recorded = Date.now()
const totalSteps = cases.reduce((n, c) => n + c.judged.length, 0)
console.log(`recorded ${totalSteps} steps on ${cases.length} pages in ${Math.round((recorded - started) / 1000)} s`)

// 2. replay every variant
const rows: Row[] = []
const tasks = cases.flatMap((pc) => VARIANTS.map((v) => ({ pc, v })))
let done = 0
/**
 * One page×variant task: ours and the baselines side by side, then the oracle. A task the harness itself could not
 * carry out (the oracle or a baseline answered "harness error": a page that did not load in time, a broken
 * install) says nothing about any approach: it runs once more, and if the harness fails again its rows are kept
 * apart as lost to the harness, never counted as steps ours missed.
 */
async function runTask(pc: PageCase, v: Variant): Promise<{ taskRows: Row[]; harnessFailed: boolean }> {
  const removal = v.kind === 'removal'
  // Ours runs in its own process; the baselines run meanwhile in this one, each on its own port.
  const taskRows: Row[] = []
  let possible: boolean[] = pc.judged.map(() => true)
  let harnessFailed = false
  const one = async (approach: Approach | 'oracle') => {
    const variant = await corpus.variant({
      ops: v.ops,
      name: `${v.name}-${approach}`,
      ...(removal ? { remove: [...new Set(pc.judged.map((j) => j.truth))] } : {}),
    })
    const url = variant.pageUrl(pc.page)
    const events = () => variant.truth.events()
    const verdicts: { outcome: Outcome; got?: string; method?: string }[] =
      approach === 'ours'
        ? await replayOurs(pc, url, events, removal)
        : await replayBaseline(browser, pc, url, events, approach, removal)
    await variant.close()
    if (verdicts.some((r) => r.got === HARNESS_ERROR)) harnessFailed = true
    if (approach === 'oracle') {
      possible = verdicts.map((r) => r.outcome === 'right' || r.got === HARNESS_ERROR)
      if (VERBOSE)
        verdicts.forEach((r, k) => {
          if (r.outcome !== 'right')
            console.log(`    oracle ${v.name} ${pc.page.id} #${k}: ${r.outcome} ${r.got ?? ''}`)
        })
      return
    }
    verdicts.forEach((r, k) => {
      const j = pc.judged[k] as JudgedStep
      const row: Row = {
        page: pc.page.id,
        variant: v.name,
        approach,
        step: k,
        action: j.action,
        kind: j.kind,
        label: j.label,
        outcome: r.outcome,
        ...(r.got ? { got: r.got } : {}),
        ...(r.method ? { method: r.method } : {}),
        ...(approach === 'ours' ? { recorded: describeRecorded(pc.actions[j.action]) } : {}),
      }
      taskRows.push(row)
    })
  }
  await Promise.all([
    one('ours'),
    (async () => {
      for (const a of APPROACHES) if (a !== 'ours') await one(a)
      if (!removal) await one('oracle')
    })(),
  ])
  for (const row of taskRows) if (possible[row.step] === false) row.possible = false
  return { taskRows, harnessFailed }
}

await pool(tasks, WORKERS, async ({ pc, v }) => {
  let task = await runTask(pc, v)
  if (task.harnessFailed) {
    console.log(`  ${v.name} ${pc.page.id}: the harness failed, running the task once more`)
    task = await runTask(pc, v)
  }
  for (const row of task.taskRows) {
    if (task.harnessFailed) row.harnessLost = true
    rows.push(row)
    if (VERBOSE && row.approach === 'ours' && row.outcome !== 'right' && row.possible !== false)
      console.log(
        `    ${row.variant} ${row.page} #${row.step} ${row.kind} "${row.label}": ${row.outcome} ${row.got ?? ''} via ${row.method} — recorded ${row.recorded}`,
      )
  }
  done++
  if (jsonOut) await writeFile(jsonOut, `${JSON.stringify({ rows }, null, 1)}\n`) // a cut-short run keeps its rows
  if (done % 20 === 0)
    console.log(`  ${done}/${tasks.length} page×variant replays, ${Math.round((Date.now() - recorded) / 1000)} s`)
})

// 3. report (steps the oracle could not do on a variant are counted apart)
const allRows = rows.splice(0, rows.length)
rows.push(...allRows.filter((r) => r.possible !== false && r.harnessLost !== true))
const pct = (n: number, d: number) => (d === 0 ? '  -' : String(Math.round((100 * n) / d)).padStart(3))
const cell = (rs: Row[]) => {
  const n = rs.length
  const c = (o: Outcome) => rs.filter((r) => r.outcome === o).length
  return `${pct(c('right'), n)}/${pct(c('wrong'), n)}/${pct(c('nothing'), n)}`
}
const header = `${'variant'.padEnd(22)}${'n'.padStart(5)}  ${APPROACHES.map((a) => `${a} ✓/✗/∅`.padStart(16)).join('')}`
console.log(`\n${header}\n${'-'.repeat(header.length)}`)
for (const v of VARIANTS) {
  const rs = rows.filter((r) => r.variant === v.name)
  const n = rs.filter((r) => r.approach === 'ours').length
  console.log(
    `${v.name.padEnd(22)}${String(n).padStart(5)}  ${APPROACHES.map((a) => cell(rs.filter((r) => r.approach === a)).padStart(16)).join('')}`,
  )
}
console.log('-'.repeat(header.length))
for (const [label, pred] of [
  ['all single operators', (v: Variant) => v.kind === 'single'],
  ['all but removal', (v: Variant) => v.kind !== 'removal'],
] as const) {
  const names = new Set(VARIANTS.filter(pred).map((v) => v.name))
  const rs = rows.filter((r) => names.has(r.variant))
  const n = rs.filter((r) => r.approach === 'ours').length
  console.log(
    `${label.padEnd(22)}${String(n).padStart(5)}  ${APPROACHES.map((a) => cell(rs.filter((r) => r.approach === a)).padStart(16)).join('')}`,
  )
}
const removalRows = rows.filter((r) => r.variant === 'removal')
if (removalRows.length > 0) {
  console.log(
    `removal, nothing clicked: ${APPROACHES.map((a) => {
      const rs = removalRows.filter((r) => r.approach === a)
      return `${a} ${pct(rs.filter((r) => r.outcome === 'right').length, rs.length).trim()} %`
    }).join(', ')}`,
  )
}
const kinds = [...new Set(rows.map((r) => r.kind))]
console.log(
  `ours on unchanged pages by kind: ${kinds
    .map((k) => {
      const rs = rows.filter((r) => r.variant === 'unchanged' && r.approach === 'ours' && r.kind === k)
      return `${k} ${rs.filter((r) => r.outcome === 'right').length}/${rs.length}`
    })
    .join(', ')}`,
)
const lostTasks = [...new Set(allRows.filter((r) => r.harnessLost === true).map((r) => `${r.variant} ${r.page}`))]
if (lostTasks.length > 0)
  console.log(
    `WARNING: ${lostTasks.length} page×variant task(s) lost to the harness twice, not judged for anyone — the figures above leave them out: ${lostTasks.join(', ')}`,
  )
const impossible = allRows.filter((r) => r.possible === false && r.harnessLost !== true && r.approach === 'ours')
console.log(
  `steps a variant made impossible (the oracle, clicking the true element, could not do them; not judged): ${impossible.length} of ${allRows.filter((r) => r.approach === 'ours').length}${
    impossible.length
      ? ` — ${VARIANTS.map((v) => `${v.name} ${impossible.filter((r) => r.variant === v.name).length}`)
          .filter((t) => !t.endsWith(' 0'))
          .join(', ')}`
      : ''
  }`,
)
if (VERBOSE) for (const r of impossible) console.log(`  ${r.variant} ${r.page} #${r.step} ${r.kind} "${r.label}"`)
const nonInteractive = cases.flatMap((c) => c.nonInteractive)
console.log(
  `recorded steps with a non-interactive target (html/body/large container/no identity): ${nonInteractive.length} of ${totalSteps}`,
)
if (VERBOSE) for (const n of nonInteractive) console.log(`  ${n}`)
const recordRight = cases.reduce((n, c) => n + c.recordRight, 0)
console.log(
  `record check (the recorder's own clicks reached the intended element): ${recordRight}/${totalSteps}${replanned ? ` (after dropping ${replanned} planned input(s) the first recording missed)` : ''}`,
)
console.log(
  `${cases.length} pages, ${totalSteps} steps, ${tasks.length * APPROACHES.length} replays in ${Math.round((Date.now() - started) / 1000)} s; ${cpus().length} cores, load average ${load0.toFixed(1)} at start, ${(loadavg()[0] ?? 0).toFixed(1)} at end`,
)
if (jsonOut) {
  await writeFile(
    jsonOut,
    `${JSON.stringify({ rows: allRows, cases: cases.map((c) => ({ page: c.page.id, judged: c.judged, recordNotes: c.recordNotes, nonInteractive: c.nonInteractive, dir: c.dir })) }, null, 2)}\n`,
  )
}
await shared.close()
await corpus.close()
if (!flag('--keep')) await rm(root, { recursive: true, force: true })
else console.log(`cases kept in ${root}`)
