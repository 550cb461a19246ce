/**
 * Upgrades benchmark: recorded on release N of a real package, replayed on release N+1. Run from the repo root after `pnpm build`:
 *   node --import tsx bench/upgrades/run.ts [--only a,b] [--json rows.json] [--verbose] [--keep]
 *   node --import tsx bench/upgrades/run.ts --dump DIR    # every interactive element of both sides, to write truth
 *   node --import tsx bench/upgrades/run.ts --shots DIR   # both sides with the truth's targets outlined and numbered
 *
 * Real release pairs (`releasePairs` of @qa/wild-corpus: release N and N+1 of templates and SPAs from npm, served
 * offline, each side on its own listener under the same paths). Per page, the steps of truth.ts are planned on N
 * in the harness's own browser (coordinates of each target, a scroll first when it is below the fold), recorded
 * with the documented CLI exactly as a user types it:
 *   node apps/cli/bin/qa.js record web <N page> --script steps.json --out <dir>/case.json
 * and replayed on N+1:
 *   node apps/cli/bin/qa.js replay <dir>/case.json --url <N+1 page> --json
 * Baselines (bench/wild/baselines.ts) run in this process on the same N+1 page: coordinates, a Selenium-IDE-style
 * chain, a Playwright-codegen-style chain and a Similo-style scorer. Judged by the N+1 page's ground truth (trusted
 * events with truth ids the tools cannot see) against the counterpart a person wrote down in truth.ts: right,
 * wrong, nothing; a "gone" control is right only when nothing was clicked (refused).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argv } from 'node:process'
import type { Browser, Locator, Page } from 'playwright-core'
import { loadTestCase } from '@qa/model/node'
import { openBrowser } from '@qa/recorder-cdp'
import {
  type CorpusServer,
  type ReleasePair,
  releaseCdn,
  releasePairs,
  runCli,
  inPageOrder,
  startCorpusServer,
  type TruthEvent,
  type TruthLog,
} from '@qa/wild-corpus'
import { codegenChain, firstMatching, similoPick } from '../wild/baselines.js'
import { truthPages } from './truth.js'
import { GONE, type TruthPage, type TruthStep } from './truth-types.js'

const flag = (name: string) => argv.includes(name)
const opt = (name: string): string | null => {
  const i = argv.indexOf(name)
  return i >= 0 ? (argv[i + 1] ?? null) : null
}
const VERBOSE = flag('--verbose')
const CLI = resolve('apps/cli/bin/qa.js')
const VIEWPORT = { width: 1280, height: 720 }
const only = opt('--only')?.split(',')

type Outcome = 'right' | 'wrong' | 'nothing'
type Approach = 'ours' | 'coords' | 'selenium' | 'codegen' | 'similo'
const ALL_APPROACHES: Approach[] = ['ours', 'coords', 'selenium', 'codegen', 'similo']
/** `--approaches ours` (the CI slice) leaves the baselines out. */
const APPROACHES: Approach[] = opt('--approaches')
  ? ALL_APPROACHES.filter((a) => (opt('--approaches') as string).split(',').includes(a))
  : ALL_APPROACHES

type ScriptStep =
  | { type: 'click'; x: number; y: number }
  | { type: 'type'; text: string }
  | { type: 'select'; x: number; y: number; value: string }
  | { type: 'scroll'; dy: number }

/** A judged step: the recorded action that clicks (or selects in) the target and what must receive it on N+1. */
interface Judged {
  step: number
  action: number
  act: TruthStep['act']
  label: string
  /** Truth id of the target on N (record check). */
  fromTruth: string
  /** Truth id of the counterpart on N+1, or null: gone. */
  toTruth: string | null
  /** The oracle could do it on N+1 (a person following the truth). */
  possible: boolean
}
interface Row {
  pair: string
  page: string
  approach: Approach
  step: number
  label: string
  gone: boolean
  outcome: Outcome
  got?: string
  method?: string
  /** ours: the step's verdict in the report was a pass (or warning). */
  passed?: boolean
}

// ---------- truth ids in the harness's page ----------

const truthOfEl = (el: Element) => {
  const detail: { truth?: string } = {}
  el.dispatchEvent(new CustomEvent('qa-corpus-truth', { detail, bubbles: true, composed: true }))
  return detail.truth ?? ''
}

/** The one element `selector` matches on this side, or an error naming the page, step and count. */
async function only1(p: Page, selector: string, where: string): Promise<Locator> {
  const l = p.locator(selector)
  const n = await l.count()
  if (n !== 1) throw new Error(`${where}: truth selector ${JSON.stringify(selector)} matches ${n} elements, not 1`)
  return l
}

/** Where to click the element now (viewport px) and whether it is on top there. */
async function clickPoint(l: Locator) {
  return l.evaluate((el: Element) => {
    const target =
      el instanceof HTMLInputElement && el.labels?.[0] && el.getBoundingClientRect().width < 2 ? el.labels[0] : el
    const r = target.getBoundingClientRect()
    const x = Math.round(r.left + Math.min(r.width / 2, 40 + r.width / 4))
    const y = Math.round(r.top + r.height / 2)
    const hit = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? document.elementFromPoint(x, y) : null
    const onTop =
      !!hit &&
      (target === hit ||
        target.contains(hit) ||
        el.contains(hit) ||
        (hit instanceof HTMLLabelElement && hit.control === el))
    return { x, y, top: r.top, height: r.height, onTop }
  })
}

/** A page of the harness's own (tsx names functions with `__name`, which page.evaluate then needs). */
async function harnessPage(browser: Browser) {
  const session = await openBrowser({ browser, viewport: VIEWPORT })
  await session.page.addInitScript('window.__name = (f) => f')
  return session
}

async function settle(p: Page, ms = 600) {
  await p.waitForTimeout(ms)
}

// ---------- plan on N: coordinates for the script, checked by the page's truth ----------

interface Plan {
  script: ScriptStep[]
  judged: Judged[]
  notes: string[]
}

async function planOnN(browser: Browser, server: CorpusServer, pair: ReleasePair, tp: TruthPage): Promise<Plan> {
  const v = await server.variant({ ops: [], name: `plan-${tp.page}` })
  const session = await harnessPage(browser)
  const p = session.page
  const script: ScriptStep[] = []
  const judged: Judged[] = []
  const notes: string[] = []
  try {
    await p.goto(v.pageUrl(`${pair.from.id}/${tp.page}`), { waitUntil: 'load' })
    await settle(p, 500)
    for (const [k, s] of tp.steps.entries()) {
      const where = `${pair.id} N ${tp.page} step ${k}`
      const l = await only1(p, s.from, where)
      const truth = await l.evaluate(truthOfEl)
      let at = await clickPoint(l)
      if (at.top < 0 || at.top + at.height > VIEWPORT.height) {
        const dy = Math.round(at.top - VIEWPORT.height / 2)
        await p.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2)
        await p.mouse.wheel(0, dy)
        await settle(p, 700)
        at = await clickPoint(l)
        script.push({ type: 'scroll', dy })
      }
      if (!at.onTop) notes.push(`${where}: target covered at (${at.x}, ${at.y})`)
      const before = v.truth.events().length
      if (s.act === 'select') {
        script.push({ type: 'select', x: at.x, y: at.y, value: s.value ?? '' })
        await l.selectOption({ label: s.value ?? '' })
      } else {
        script.push({ type: 'click', x: at.x, y: at.y })
        await p.mouse.click(at.x, at.y)
        if (s.act === 'type') {
          script.push({ type: 'type', text: s.text ?? 'text' })
          await p.keyboard.type(s.text ?? 'text')
        }
      }
      await settle(p)
      const evs = v.truth.events().slice(before)
      const reached =
        s.act === 'select' ||
        evs.some((e) => (e.kind === 'pointerdown' || e.kind === 'click') && e.chain.includes(truth))
      if (!reached) notes.push(`${where}: the harness's click did not reach ${s.from} (${evs[0]?.truth ?? 'no event'})`)
      judged.push({
        step: k,
        action: script.length - (s.act === 'type' ? 2 : 1),
        act: s.act,
        label: s.from,
        fromTruth: truth,
        toTruth: null,
        possible: true,
      })
    }
  } finally {
    await session.close()
    await v.close()
  }
  return { script, judged, notes }
}

// ---------- the oracle on N+1: each counterpart, matched exactly once, done as a person would ----------

async function oracleOnN1(
  browser: Browser,
  server: CorpusServer,
  pair: ReleasePair,
  tp: TruthPage,
  toPage: string,
  judged: Judged[],
) {
  const v = await server.variant({ ops: [], name: `oracle-${tp.page}` })
  const session = await harnessPage(browser)
  const p = session.page
  const notes: string[] = []
  try {
    await p.goto(v.pageUrl(`${pair.to.id}/${toPage}`), { waitUntil: 'load' })
    await settle(p, 500)
    for (const j of judged) {
      const s = tp.steps[j.step] as TruthStep
      if (s.to === GONE) continue
      const where = `${pair.id} N+1 ${toPage} step ${j.step}`
      const l = await only1(p, s.to, where)
      j.toTruth = await l.evaluate(truthOfEl)
      const before = v.truth.events().length
      try {
        if (s.act === 'select') await l.selectOption({ label: s.value ?? '' }, { timeout: 3000 })
        else if (!(await l.isEnabled({ timeout: 3000 }).catch(() => true))) {
          // a person's click on a disabled control does nothing (redoc 2.5's response buttons of a response with
          // no body): the step cannot be done on N+1, and `force` (only for a covered control) must not do it
          notes.push(`${where}: the oracle could not do it: ${s.to} is disabled on N+1`)
        } else {
          await l.click({ timeout: 3000 }).catch(() => l.click({ force: true, timeout: 2000 }))
          if (s.act === 'type') await p.keyboard.type(s.text ?? 'text')
        }
      } catch (e) {
        notes.push(`${where}: the oracle could not do it: ${(e as Error).message.split('\n')[0]}`)
      }
      await settle(p)
      const evs = v.truth.events().slice(before)
      j.possible =
        s.act === 'select'
          ? evs.length > 0
          : evs.some((e) => (e.kind === 'pointerdown' || e.kind === 'click') && e.chain.includes(j.toTruth as string))
      if (!j.possible) notes.push(`${where}: the oracle's click did not reach ${s.to}`)
    }
  } finally {
    await session.close()
    await v.close()
  }
  return notes
}

// ---------- judging (as bench/wild: the k-th pointerdown belongs to the k-th step that clicked) ----------

function relevant(e: TruthEvent, act: TruthStep['act']) {
  return act === 'click'
    ? e.kind === 'pointerdown' || e.kind === 'click'
    : e.kind === 'input' || e.kind === 'change' || e.kind === 'untrusted-change' || e.kind === 'pointerdown'
}

function verdict(evs: readonly TruthEvent[], j: Judged, target: string | null): { outcome: Outcome; got?: string } {
  const rel = evs.filter((e) => relevant(e, j.act))
  if (rel.length === 0) return { outcome: 'nothing' }
  if (target && rel.some((e) => e.chain.includes(target))) return { outcome: 'right' }
  const e = rel[0] as TruthEvent
  return { outcome: 'wrong', got: `${e.tag} "${e.label}" ${e.truth}` }
}

function judgeRun(events: readonly TruthEvent[], judged: readonly Judged[], clicked: readonly boolean[]) {
  const groups: TruthEvent[][] = []
  for (const e of inPageOrder(events)) {
    if (e.kind === 'pointerdown') groups.push([e])
    else if (groups.length > 0) (groups[groups.length - 1] as TruthEvent[]).push(e)
    else groups.push([e])
  }
  let g = 0
  return judged.map((j, k) => {
    // a scripted or replayed select sets the value without a pointer: judged by the change it made, run-wide
    if (j.act === 'select') {
      const changed = events.some(
        (e) => (e.kind === 'change' || e.kind === 'untrusted-change') && !!j.toTruth && e.chain.includes(j.toTruth),
      )
      return { outcome: changed ? ('right' as const) : ('nothing' as const) }
    }
    const evs = clicked[k] && g < groups.length ? (groups[g++] as TruthEvent[]) : []
    return verdict(evs, j, j.toTruth)
  })
}

// ---------- record on N, replay on N+1 ----------

async function recordOnN(server: CorpusServer, pair: ReleasePair, tp: TruthPage, plan: Plan, dir: string) {
  await writeFile(join(dir, 'steps.json'), `${JSON.stringify(plan.script, null, 2)}\n`)
  const v = await server.variant({ ops: [], name: `rec-${tp.page}` })
  const caseFile = join(dir, 'case.json')
  const res = await runCli(
    CLI,
    ['record', 'web', v.pageUrl(`${pair.from.id}/${tp.page}`), '--script', 'steps.json', '--out', caseFile, '--force'],
    dir,
  )
  await new Promise((r) => setTimeout(r, 300))
  const events = v.truth.events()
  await v.close()
  if (res.code !== 0)
    throw new Error(`record failed (exit ${res.code}): ${(res.stderr || res.stdout).trim().split('\n')[0]}`)
  const tc = JSON.parse(await readFile(caseFile, 'utf8')) as { actions: Record<string, unknown>[] }
  // record check: every judged step reached its N target in the recording
  const fromSide = plan.judged.map((j) => ({ ...j, toTruth: j.fromTruth }))
  const check = judgeRun(
    events,
    fromSide,
    fromSide.map((j) => j.act !== 'select'),
  )
  const missed = check.flatMap((c, k) =>
    c.outcome === 'right' ? [] : [`record check: step ${plan.judged[k]?.step} ${c.outcome} ${c.got ?? ''}`],
  )
  return { caseFile, actions: tc.actions, missed }
}

async function replayOurs(caseFile: string, dir: string, url: string, truth: TruthLog, judged: Judged[]) {
  const reportDir = join(dir, 'reports', String(Math.random()).slice(2))
  const res = await runCli(CLI, ['replay', caseFile, '--url', url, '--json', '--report-dir', reportDir], dir)
  await new Promise((r) => setTimeout(r, 300))
  let results: Record<string, unknown>[] = []
  try {
    results = ((JSON.parse(res.stdout) as Record<string, unknown>).replay_results ?? []) as Record<string, unknown>[]
  } catch {
    console.log(`  replay printed no JSON (exit ${res.code}): ${(res.stderr || res.stdout).trim().split('\n')[0]}`)
  }
  const byAction = new Map<number, Record<string, unknown>>()
  for (const [k, r] of results.entries()) byAction.set(Number(r.action_index ?? k), r)
  const clicked = judged.map((j) => {
    const r = byAction.get(j.action)
    return r?.success === true && j.act !== 'select'
  })
  return judgeRun(truth.events(), judged, clicked).map((v, k) => {
    const r = byAction.get((judged[k] as Judged).action)
    const status = String(r?.status ?? (r?.success ? 'pass' : 'fail'))
    return {
      ...v,
      method: r ? `${String(r.method)}${r.success ? '' : ' (failed)'}` : 'no result',
      passed: status === 'pass' || status === 'passed' || status === 'warning',
    }
  })
}

async function replayBaseline(
  browser: Browser,
  approach: Exclude<Approach, 'ours'>,
  url: string,
  truth: TruthLog,
  judged: Judged[],
  actions: Record<string, unknown>[],
  identities: unknown[],
) {
  const results: { outcome: Outcome; got?: string }[] = judged.map(() => ({ outcome: 'nothing' as Outcome }))
  const session = await harnessPage(browser)
  const p = session.page
  try {
    await p.goto(url, { waitUntil: 'load', timeout: 20_000 })
    await settle(p, 500)
    const judgedAt = new Map(judged.map((j, k) => [j.action, k]))
    let carry = null as { k: number; before: number } | null
    for (let a = 0; a < actions.length; a++) {
      const act = actions[a] as Record<string, unknown>
      const type = String(act.action_type)
      const before: number = carry?.before ?? truth.events().length
      try {
        if (type === 'scroll') {
          await p.mouse.move(Number(act.x), Number(act.y))
          await p.mouse.wheel(Number(act.scroll_dx ?? 0), Number(act.scroll_dy ?? 0))
          await settle(p, 500)
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
        } else {
          const l =
            approach === 'similo'
              ? await similoPick(p, identities[a])
              : await (approach === 'selenium' ? firstMatching : codegenChain)(p, act)
          if (l) {
            if (type === 'type') await l.fill(String(act.text ?? ''), { timeout: 2000 })
            else if (type === 'select') await l.selectOption({ label: String(act.value ?? '') }, { timeout: 2000 })
            else await l.click({ timeout: 2000 })
          }
        }
      } catch {
        // a failed step is "nothing" unless the page saw input
      }
      await settle(p, 200)
      const k: number | undefined = carry?.k ?? judgedAt.get(a)
      carry = null
      if (k === undefined) continue
      const j = judged[k] as Judged
      // a typed text belongs to its field's click: judge the click and the typing together
      const next = actions[a + 1] as Record<string, unknown> | undefined
      if (j.act === 'type' && j.action === a && next?.action_type === 'type') {
        carry = { k, before }
        continue
      }
      results[k] = verdict(truth.events().slice(before), j, j.toTruth)
    }
  } catch (e) {
    console.log(`  ${approach}: ${(e as Error).message.split('\n')[0]}`)
  } finally {
    await session.close()
  }
  return results
}

// ---------- outlined screenshots and the element dump (to write and check the truth) ----------

async function outlined(p: Page, selectors: (string | null)[], file: string) {
  for (const [k, sel] of selectors.entries()) {
    if (!sel) continue
    // Playwright selectors (`:has-text`, `:nth-match`) too: each is outlined through its locator
    await p
      .locator(sel)
      .first()
      .evaluate(
        (el: Element, n: number) => {
          ;(el as HTMLElement).style.outline = '3px solid #e00'
          const r = el.getBoundingClientRect()
          const b = document.createElement('div')
          b.textContent = String(n)
          b.setAttribute(
            'style',
            `position:absolute;z-index:2147483647;left:${r.left + scrollX - 4}px;top:${r.top + scrollY - 14}px;background:#e00;color:#fff;font:bold 12px sans-serif;padding:0 3px;pointer-events:none`,
          )
          document.body.appendChild(b)
        },
        k,
        { timeout: 2000 },
      )
      .catch(() => undefined)
  }
  await p.screenshot({ path: file, fullPage: true })
}

async function shots(browser: Browser, servers: Map<string, { from: CorpusServer; to: CorpusServer }>, out: string) {
  for (const tp of pagesToRun) {
    const pair = releasePairs.find((x) => x.id === tp.pair) as ReleasePair
    const s = servers.get(pair.id) as { from: CorpusServer; to: CorpusServer }
    const toPage = pair.pages.find((x) => x.from === tp.page)?.to ?? tp.page
    for (const side of ['from', 'to'] as const) {
      const session = await harnessPage(browser)
      try {
        await session.page.goto(s[side].pageUrl(`${pair[side].id}/${side === 'from' ? tp.page : toPage}`), {
          waitUntil: 'load',
        })
        await settle(session.page, 500)
        const file = join(out, `${pair.id}__${tp.page.replace(/\W+/g, '_')}__${side === 'from' ? 'N' : 'N+1'}.png`)
        await outlined(
          session.page,
          tp.steps.map((st) => (side === 'from' ? st.from : st.to === GONE ? null : st.to)),
          file,
        )
        console.log(file)
      } finally {
        await session.close()
      }
    }
  }
}

async function dump(browser: Browser, servers: Map<string, { from: CorpusServer; to: CorpusServer }>, out: string) {
  for (const pair of releasePairs.filter((x) => !only || only.some((o) => x.id.includes(o)))) {
    const s = servers.get(pair.id) as { from: CorpusServer; to: CorpusServer }
    for (const pg of pair.pages) {
      for (const side of ['from', 'to'] as const) {
        const session = await harnessPage(browser)
        try {
          await session.page.goto(s[side].pageUrl(`${pair[side].id}/${side === 'from' ? pg.from : pg.to}`), {
            waitUntil: 'load',
          })
          await settle(session.page, 500)
          const lines = await session.page.evaluate(() => {
            const SEL =
              'a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=tab],[role=checkbox],[role=switch],[role=menuitem],.dropdown-item,.page-link,[data-bs-toggle],[data-toggle],label'
            const q = (v: string) => JSON.stringify(v)
            return Array.from(document.querySelectorAll(SEL)).map((el) => {
              const r = el.getBoundingClientRect()
              const shown = r.width > 2 && r.height > 2 && getComputedStyle(el).visibility !== 'hidden'
              const attrs = [
                'id',
                'name',
                'type',
                'href',
                'placeholder',
                'aria-label',
                'title',
                'data-bs-toggle',
                'data-toggle',
                'data-bs-target',
                'data-target',
                'for',
              ]
                .map((a) => (el.getAttribute(a) ? `${a}=${q(el.getAttribute(a) as string)}` : ''))
                .filter(Boolean)
                .join(' ')
              // biome-ignore lint/performance/useDomNodeTextContent: the label a person sees
              const text = ((el as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 50)
              return `${shown ? ' ' : 'h'} ${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')} ${attrs} "${text}" @${Math.round(r.left)},${Math.round(r.top + scrollY)}`
            })
          })
          const file = join(
            out,
            `${pair.id}__${(side === 'from' ? pg.from : pg.to).replace(/\W+/g, '_')}__${side === 'from' ? 'N' : 'N+1'}.txt`,
          )
          await writeFile(file, `${lines.join('\n')}\n`)
          console.log(file, lines.length)
        } finally {
          await session.close()
        }
      }
    }
  }
}

// ---------- main ----------

/** `--max-steps N`: the first N steps of each page (the CI slice). */
const maxSteps = Number(opt('--max-steps') ?? Number.POSITIVE_INFINITY)
const pagesToRun = truthPages
  .filter((tp) => !only || only.some((o) => `${tp.pair}/${tp.page}`.includes(o)))
  .map((tp) => ({ ...tp, steps: tp.steps.slice(0, maxSteps) }))
const pairsUsed = releasePairs.filter((pair) =>
  flag('--dump') ? !only || only.some((o) => pair.id.includes(o)) : pagesToRun.some((tp) => tp.pair === pair.id),
)
const servers = new Map<string, { from: CorpusServer; to: CorpusServer }>()
for (const pair of pairsUsed) {
  servers.set(pair.id, {
    from: await startCorpusServer({ kits: [pair.from], cdn: releaseCdn }),
    to: await startCorpusServer({ kits: [pair.to], cdn: releaseCdn }),
  })
}
const shared = await openBrowser({ viewport: VIEWPORT })
const browser = shared.browser
const closeAll = async () => {
  await shared.close()
  for (const s of servers.values()) {
    await s.from.close()
    await s.to.close()
  }
}

if (opt('--dump') || opt('--shots')) {
  const out = resolve((opt('--dump') ?? opt('--shots')) as string)
  await mkdir(out, { recursive: true })
  if (opt('--dump')) await dump(browser, servers, out)
  else await shots(browser, servers, out)
  await closeAll()
  process.exit(0)
}

const started = Date.now()
const load0 = loadavg()[0] ?? 0
const root = await mkdtemp(join(tmpdir(), 'qa-upgrades-'))
const rows: Row[] = []
const impossible: string[] = []
const harness: string[] = []
// `--from-json a.json,b.json`: the summary of rows written by earlier runs (e.g. two halves run side by side)
const fromJson = opt('--from-json')
if (fromJson)
  for (const f of fromJson.split(',')) rows.push(...(JSON.parse(await readFile(resolve(f), 'utf8')) as Row[]))
for (const tp of fromJson ? [] : pagesToRun) {
  const pair = releasePairs.find((x) => x.id === tp.pair)
  if (!pair) throw new Error(`truth.ts: page ${tp.page} names pair ${tp.pair}, which @qa/wild-corpus does not have`)
  const s = servers.get(pair.id) as { from: CorpusServer; to: CorpusServer }
  const toPage = pair.pages.find((x) => x.from === tp.page)?.to
  if (!toPage) throw new Error(`truth.ts: ${tp.pair} has no page ${tp.page}`)
  const dir = join(root, `${pair.id}__${tp.page.replace(/\W+/g, '_')}`)
  await mkdir(dir, { recursive: true })
  try {
    const plan = await planOnN(browser, s.from, pair, tp)
    const oracleNotes = await oracleOnN1(browser, s.to, pair, tp, toPage, plan.judged)
    if (flag('--check')) {
      // the truth only: every selector matches one element on its side, the harness and the oracle reach it
      const bad = [...plan.notes, ...oracleNotes]
      console.log(
        `${pair.id} ${tp.page}: ${plan.judged.length} steps${bad.length ? `\n    ${bad.join('\n    ')}` : ' ok'}`,
      )
      continue
    }
    const rec = await recordOnN(s.from, pair, tp, plan, dir)
    const notes = [...plan.notes, ...oracleNotes, ...rec.missed]
    // steps the recording did not deliver on N, or the oracle could not do on N+1, are not judged
    const missedSteps = new Set(rec.missed.map((m) => Number(/step (\d+)/.exec(m)?.[1])))
    for (const j of plan.judged) {
      if (!j.possible || missedSteps.has(j.step))
        impossible.push(
          `${pair.id} ${tp.page} step ${j.step} ${j.label}${missedSteps.has(j.step) ? ' (record check)' : ' (oracle)'}`,
        )
    }
    const loaded = await loadTestCase(rec.caseFile)
    const identities = loaded.testCase.actions.map((a) => (a as { identity?: unknown }).identity)
    for (const approach of APPROACHES) {
      const v = await s.to.variant({ ops: [], name: `${approach}-${tp.page}` })
      const url = v.pageUrl(`${pair.to.id}/${toPage}`)
      const got =
        approach === 'ours'
          ? await replayOurs(rec.caseFile, dir, url, v.truth, plan.judged)
          : await replayBaseline(browser, approach, url, v.truth, plan.judged, rec.actions, identities)
      await v.close()
      got.forEach((g, k) => {
        const j = plan.judged[k] as Judged
        if (!j.possible || missedSteps.has(j.step)) return
        const gone = (tp.steps[j.step] as TruthStep).to === GONE
        rows.push({
          pair: pair.id,
          page: tp.page,
          approach,
          step: j.step,
          label: (tp.steps[j.step] as TruthStep).from,
          gone,
          ...g,
        })
      })
    }
    const ours = rows.filter((r) => r.approach === 'ours' && r.pair === pair.id && r.page === tp.page)
    const right = ours.filter((r) => (r.gone ? r.outcome === 'nothing' : r.outcome === 'right')).length
    console.log(`${pair.id} ${tp.page}: ours ${right}/${ours.length}${notes.length ? `  (${notes.length} notes)` : ''}`)
    if (VERBOSE) {
      for (const n of notes) console.log(`    note: ${n}`)
      for (const r of ours)
        if (r.gone ? r.outcome !== 'nothing' : r.outcome !== 'right')
          console.log(
            `    ours step ${r.step} ${r.gone ? 'gone' : 'mapped'} ${r.label}: ${r.outcome} ${r.got ?? ''} [${r.method}]`,
          )
    }
  } catch (e) {
    harness.push(`${pair.id} ${tp.page}: ${(e as Error).message}`)
    console.log(`${pair.id} ${tp.page}: HARNESS ${(e as Error).message}`)
  }
  if (opt('--json')) await writeFile(resolve(opt('--json') as string), `${JSON.stringify(rows, null, 1)}\n`)
}

// ---------- summary ----------

const pct = (n: number, d: number) => (d === 0 ? '   -' : (Math.round((1000 * n) / d) / 10).toFixed(1).padStart(5))
function cells(rs: Row[]) {
  return APPROACHES.map((a) => {
    const m = rs.filter((r) => r.approach === a && !r.gone)
    const g = rs.filter((r) => r.approach === a && r.gone)
    const right = m.filter((r) => r.outcome === 'right').length
    const wrong = m.filter((r) => r.outcome === 'wrong').length
    const nothing = m.length - right - wrong
    const refused = g.filter((r) => r.outcome === 'nothing').length
    return `${pct(right, m.length)}/${String(wrong).padStart(2)}/${String(nothing).padStart(2)} ${pct(refused, g.length)}`
  }).join(' ')
}
const header = `${'pair'.padEnd(28)}${'pages'.padStart(6)}${'mapped'.padStart(7)}${'gone'.padStart(5)}  ${APPROACHES.map((a) => `${a} ✓%/✗/∅ gone-refused%`.padEnd(23)).join('')}`
console.log(`\n${header}`)
const pairIds = [...new Set(rows.map((r) => r.pair))]
for (const id of [...pairIds, 'all']) {
  const rs = id === 'all' ? rows : rows.filter((r) => r.pair === id)
  const ours = rs.filter((r) => r.approach === 'ours')
  // a page is one of a pair: the same file name in two pairs is two pages
  const pages = new Set(ours.map((r) => `${r.pair}/${r.page}`)).size
  console.log(
    `${id.padEnd(28)}${String(pages).padStart(6)}${String(ours.filter((r) => !r.gone).length).padStart(7)}${String(ours.filter((r) => r.gone).length).padStart(5)}  ${cells(rs)}`,
  )
}
const wrongPassed = rows.filter((r) => r.approach === 'ours' && r.outcome === 'wrong' && r.passed)
console.log(`\nours: wrong clicks the verdict passed: ${wrongPassed.length}`)
for (const a of APPROACHES) {
  const w = rows.filter((r) => r.approach === a && r.outcome === 'wrong')
  console.log(`${a}: wrong clicks ${w.length} (${w.filter((r) => r.gone).length} on gone controls)`)
}
if (impossible.length > 0) console.log(`\nnot judged (${impossible.length}):\n  ${impossible.join('\n  ')}`)
if (harness.length > 0) console.log(`\nharness errors (${harness.length}):\n  ${harness.join('\n  ')}`)
console.log(
  `\n${pagesToRun.length} pages, ${rows.filter((r) => r.approach === 'ours').length} judged steps, ${Math.round((Date.now() - started) / 1000)} s, load ${load0.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`,
)
if (!flag('--keep')) await rm(root, { recursive: true, force: true })
else console.log(`cases kept in ${root}`)
await closeAll()
process.exit(harness.length > 0 ? 1 : 0)
