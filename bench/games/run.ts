// Game QA on real games from Debian. Each case (a person's flow through a game's menus: an item, a
// setting, back, quit) is recorded with real X input (xdotool: move onto the item, rest on it while it lights up,
// click) through `qa record desktop` exactly as a user types it, then replayed on every variant of the game by ours
// (`qa replay --verify --json`) and by two baselines run here (the recorded coordinates; Airtest-style
// single-scale template matching, threshold 0.7). Ground truth is what the game itself writes (its settings file,
// whether it quit), never a replayer's verdict; see programs.ts.
// Run from the repo root after `pnpm build`:
//   node --import tsx bench/games/run.ts [--only lbreakout,mines] [--variants unchanged,moved] [--cases N]
//     [--json rows.json] [--no-analyze] [--approaches ours,coords,template]
//   node --import tsx bench/games/run.ts --from rows.json[,more.json]   (the tables of earlier runs)
//   QA_BENCH_WHY=1 …   prints each refused step of ours with every strategy it tried
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { startDesktopRecording } from '../desktop-real/desktop-recording'
import { parseReplayReport } from '@qa/model'
import { matchTemplate } from '@qa/matcher'
import { closeNut, decodeImage, nutScreen, startXvfb } from '@qa/recorder-desktop'
import { type Game, type GameCase, GAMES, type GameTruth, VARIANTS, type Variant } from './programs'

const run = promisify(execFile)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const repoRoot = resolve(import.meta.dirname, '../..')
const QA = join(repoRoot, 'apps/cli/bin/qa.js')
const ALL_APPROACHES = ['ours', 'coords', 'template'] as const
type Approach = (typeof ALL_APPROACHES)[number]
/**
 * Per step: right (its effect happened), wrong (clicked, its effect did not happen), refused (nothing clicked),
 * unproven (clicked, a step with no effect of its own, e.g. opening a menu, whose next step was refused: the game
 * writes nothing that tells whether it was the right item; counted neither right nor wrong, and left out of the
 * verdict's agreement).
 */
type Outcome = 'right' | 'wrong' | 'refused' | 'unproven'

interface Row {
  program: string
  caseId: string
  variant: Variant
  approach: Approach
  step: number
  outcome: Outcome
  /** ours only: the step's verdict passed (replayed and not failed by verification). */
  verdictPass?: boolean
  /** the step's intended effect happened in the game (false for every step of a removal). */
  achieved: boolean
  /** ours only: how the step was found, or why not (from the report). */
  how?: string
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : undefined
}
const only = arg('--only')?.split(',')
const variantsArg = (arg('--variants')?.split(',') ?? [...VARIANTS]) as Variant[]
for (const v of variantsArg)
  if (!VARIANTS.includes(v)) throw new Error(`--variants: unknown variant ${v} (${VARIANTS})`)
const approaches = (arg('--approaches')?.split(',') ?? [...ALL_APPROACHES]) as Approach[]
for (const a of approaches)
  if (!ALL_APPROACHES.includes(a)) throw new Error(`--approaches: unknown approach ${a} (${ALL_APPROACHES})`)
const jsonOut = arg('--json')
const analyze = !process.argv.includes('--no-analyze')
const casesArg = arg('--cases')
const maxCases = casesArg === undefined ? Number.POSITIVE_INFINITY : Number(casesArg)
if (!(maxCases >= 1)) throw new Error(`--cases: expected a positive number, got ${casesArg}`)
const games = GAMES.filter((g) => !only || only.some((o) => g.id.includes(o)))
/** Cases whose id contains one of these (`--case-ids keys`), after `--cases`. */
const caseIds = arg('--case-ids')?.split(',')

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} % (${n}/${d})`)

function summary(rows: Row[]): string {
  const lines = [
    '| variant | approach | steps right | wrong clicks | unproven | removed targets refused | verdict agrees with truth | false passes |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ]
  for (const variant of VARIANTS) {
    for (const approach of ALL_APPROACHES) {
      const rs = rows.filter((r) => r.variant === variant && r.approach === approach)
      if (!rs.length) continue
      const wrong = rs.filter((r) => r.outcome === 'wrong').length
      const right = variant === 'removal' ? '—' : pct(rs.filter((r) => r.outcome === 'right').length, rs.length)
      const refused = variant === 'removal' ? pct(rs.filter((r) => r.outcome === 'refused').length, rs.length) : '—'
      const ours = approach === 'ours'
      const judged = rs.filter((r) => r.outcome !== 'unproven')
      const verdict = ours
        ? pct(judged.filter((r) => r.verdictPass === r.achieved).length, judged.length)
        : 'no verdict'
      const falsePass = ours ? String(judged.filter((r) => !r.achieved && r.verdictPass).length) : '—'
      const unproven = rs.filter((r) => r.outcome === 'unproven').length
      lines.push(
        `| ${variant} | ${approach} | ${right} | ${pct(wrong, rs.length)} | ${unproven} | ${refused} | ${verdict} | ${falsePass} |`,
      )
    }
  }
  return lines.join('\n')
}

function perGame(rows: Row[]): string {
  const lines = [
    '| game | variant | ours right (removal: refused) | ours wrong | verdict agrees | coords right | template right |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ]
  for (const program of [...new Set(rows.map((r) => r.program))]) {
    for (const variant of VARIANTS) {
      const of = (a: Approach) => rows.filter((r) => r.program === program && r.variant === variant && r.approach === a)
      const rs = of('ours')
      if (!rs.length) continue
      const good = (x: Row[]) =>
        pct(x.filter((r) => r.outcome === (variant === 'removal' ? 'refused' : 'right')).length, x.length)
      const judged = rs.filter((r) => r.outcome !== 'unproven')
      lines.push(
        `| ${program} | ${variant} | ${good(rs)} | ${pct(rs.filter((r) => r.outcome === 'wrong').length, rs.length)} | ${pct(judged.filter((r) => r.verdictPass === r.achieved).length, judged.length)} | ${good(of('coords'))} | ${good(of('template'))} |`,
      )
    }
  }
  return lines.join('\n')
}

function labelTable(labels: LabelRow[]): string {
  if (!labels.length) return ''
  const lines = [
    "| game | recorded labels right | partial (the item's own text cut short) | wrong (another item's text) | none trusted |",
    '| --- | --- | --- | --- | --- |',
  ]
  for (const program of [...new Set(labels.map((r) => r.program))]) {
    const ls = labels.filter((r) => r.program === program)
    const n = (o: LabelRow['outcome']) => pct(ls.filter((r) => r.outcome === o).length, ls.length)
    lines.push(`| ${program} | ${n('right')} | ${n('partial')} | ${n('wrong')} | ${n('none')} |`)
  }
  const wrong = labels
    .filter((r) => r.outcome === 'wrong')
    .map((r) => `${r.program}#${r.step} "${r.expected}" → "${r.recorded}"`)
  return `${lines.join('\n')}${wrong.length ? `\n\nwrong labels: ${wrong.join('; ')}` : ''}`
}

const from = arg('--from')
if (from) {
  const earlier: Row[] = from.split(',').flatMap((f) => JSON.parse(readFileSync(f, 'utf8')) as Row[])
  console.log(summary(earlier))
  console.log()
  console.log(perGame(earlier))
  const labelFiles = from.split(',').map((f) => f.replace(/(\.json)?$/, '.labels.json'))
  // judged again with this file's rule (what counts as the item's text)
  const labels = labelFiles
    .filter((f) => existsSync(f))
    .flatMap((f) => JSON.parse(readFileSync(f, 'utf8')) as LabelRow[])
    .map((l) => ({ ...l, outcome: labelOutcome(l.expected, l.recorded) }))
  console.log()
  console.log(labelTable(labels))
  process.exit(0)
}

/**
 * Judges a run from what the game wrote. A step with an effect is right when it was clicked and the game's
 * settings reached the value (after the previous effect), or the game quit by itself; a step without one (a menu
 * opened) is right when the next step was clicked and right, which only the screen it opened offers. `acted[i]`:
 * the replayer clicked at step i.
 */
function judgeRun(c: GameCase, truth: GameTruth, acted: boolean[], variant: Variant): Outcome[] {
  if (variant === 'removal') return c.steps.map((_, i) => (acted[i] ? 'wrong' : 'refused'))
  const proven: boolean[] = []
  let from = 0
  c.steps.forEach((s, i) => {
    if (!s.effect) return
    if (s.effect === 'quit') {
      proven[i] = truth.quitByItself
      return
    }
    const { key, value } = s.effect
    const at = truth.trail.findIndex((t, k) => k >= from && t[key] === value)
    proven[i] = at >= 0
    if (at >= 0) from = at
  })
  // a step without an effect is proven by the next step, when that one was clicked and proven (the screen the
  // step opened offered it); a step with an effect of its own is proven by it alone (a close button clicked after
  // steps that were refused still quits the game)
  // such a step whose next step was refused (or is itself unproven) cannot be told right or wrong
  const unprovable: boolean[] = []
  for (let i = c.steps.length - 1; i >= 0; i--) {
    if (proven[i] === undefined) {
      proven[i] = i + 1 < c.steps.length ? acted[i + 1] === true && (proven[i + 1] as boolean) : true
      unprovable[i] = !proven[i] && i + 1 < c.steps.length && (acted[i + 1] !== true || unprovable[i + 1] === true)
    }
  }
  return c.steps.map((_, i) => (!acted[i] ? 'refused' : proven[i] ? 'right' : unprovable[i] ? 'unproven' : 'wrong'))
}

const xvfb = await startXvfb({ width: 1280, height: 800 })
process.env.DISPLAY = xvfb.display
const env = { ...process.env, DISPLAY: xvfb.display, QA_VISION: 'ocr', NO_COLOR: '1' }
const xdo = (...args: string[]) => run('xdotool', args, { env })
const workDir = mkdtempSync(join(tmpdir(), 'qa-games-'))
const rows: Row[] = []
/** Per recorded click: the label the recording stored for it against the text of the item the person clicked. */
interface LabelRow {
  program: string
  caseId: string
  step: number
  expected: string
  recorded: string | null
  outcome: 'right' | 'partial' | 'wrong' | 'none'
}
const labelRows: LabelRow[] = []
// the multiplication sign of "16 × 16" is read as the letter x by OCR: both stand for the same label
function norm(t: string): string {
  return t
    .normalize('NFKC')
    .toLowerCase()
    .replace(/×/g, 'x')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}
/**
 * A label is right when it is the item's text or one of its words (OCR reads "Sound:" of "Sound:  On" as a word);
 * partial when it is a piece of at least 3 characters of the item's own text, read cut short ("dium" of FLTK's
 * highlighted "Medium" next to its radio mark); wrong when it is anything else (a neighbour's text, a toggle's value).
 */
function labelOutcome(expected: string, recorded: string | null): LabelRow['outcome'] {
  if (!recorded || !norm(recorded)) return 'none'
  const e = norm(expected)
  const r = norm(recorded)
  if (e === r || (r.length >= 2 && e.split(' ').includes(r)) || (e.length >= 2 && r.includes(e))) return 'right'
  return r.length >= 3 && e.includes(r) ? 'partial' : 'wrong'
}

/** Gives the keyboard focus to the game's window (no window manager runs) and keeps the pointer off it. */
async function focusGame(title: string) {
  await xdo('mousemove', '1270', '790')
  await xdo('search', '--sync', '--name', title, 'windowfocus', '--sync')
  await sleep(300)
}

/** Clicks as a person does: moves onto the target, rests on it (the item lights up), clicks. */
async function personClick(p: { x: number; y: number }) {
  await xdo('mousemove', String(p.x), String(p.y))
  await sleep(500)
  await xdo('click', '1')
}

async function recordCase(game: Game, c: GameCase): Promise<string> {
  const caseFile = join(workDir, game.id, c.id, 'case.json')
  mkdirSync(dirname(caseFile), { recursive: true })
  const app = await game.launch('unchanged', xvfb.display, workDir)
  const rec = await startDesktopRecording(QA, caseFile, { analyze, env })
  await sleep(800)
  if (c.focusTitle) await focusGame(c.focusTitle)
  for (const step of c.steps) {
    if (step.key) {
      // a person reads the menu, presses the key, watches it react
      await sleep(300)
      await xdo('key', step.key)
      await sleep(1200)
      continue
    }
    const p = app.targets.get(step.click)
    if (!p) throw new Error(`${game.id}: no target ${step.click}`)
    // the pointer comes from elsewhere, as a person's does between two items
    await xdo('mousemove', String(p.x + 140), String(p.y + 90))
    await sleep(300)
    await personClick(p)
    await sleep(1500)
  }
  // the stop key with the pointer off the game
  await xdo('mousemove', '1270', '790')
  await sleep(300)
  await xdo('key', 'F10')
  const code = await rec.exited
  const truth = await app.finish()
  if (code !== 0) throw new Error(`${game.id}/${c.id}: qa record desktop exited ${code}: ${rec.stderr()}`)
  const judged = judgeRun(
    c,
    truth,
    c.steps.map(() => true),
    'unchanged',
  )
  if (judged.some((o) => o !== 'right'))
    throw new Error(
      `${game.id}/${c.id}: the recording did not reach its targets: ${judged} ${JSON.stringify(truth)} ${rec.stdout()}`,
    )
  const tc = JSON.parse(readFileSync(caseFile, 'utf8'))
  if (tc.actions.length !== c.steps.length)
    throw new Error(`${game.id}/${c.id}: recorded ${tc.actions.length} actions for ${c.steps.length} steps`)
  c.steps.forEach((step, i) => {
    const expected = step.label ?? step.click
    if (!expected) return
    const t = tc.actions[i]?.semantic_info?.target_element
    // a label under the trusted score is kept as low-confidence and never shown as what was clicked
    const trusted = t?.text && (typeof t.confidence !== 'number' || t.confidence >= 0.6) ? (t.text as string) : null
    labelRows.push({
      program: game.id,
      caseId: c.id,
      step: i,
      expected,
      recorded: trusted,
      outcome: labelOutcome(expected, trusted),
    })
  })
  return caseFile
}

async function replayOurs(game: Game, c: GameCase, caseFile: string, variant: Variant) {
  const app = await game.launch(variant, xvfb.display, workDir)
  if (c.focusTitle) await focusGame(c.focusTitle)
  const reportDir = join(dirname(caseFile), `report-${variant}`)
  const r = await run(process.execPath, [QA, 'replay', caseFile, '--verify', '--json', '--report-dir', reportDir], {
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((e: { stdout?: string; code?: number; stderr?: string }) => e)
  const truth = await app.finish()
  if (!r.stdout) throw new Error(`${game.id}/${c.id}/${variant}: qa replay printed no report: ${r.stderr}`)
  const report = parseReplayReport(JSON.parse(r.stdout))
  const results = report.replayResults ?? []
  const acted = c.steps.map((_, i) => results[i]?.success === true)
  judgeRun(c, truth, acted, variant).forEach((outcome, i) => {
    if (variant === 'removal' && game.removalKeeps.includes((c.steps[i] as GameCase['steps'][number]).click)) return
    const verification = report.verificationResults[i]
    const res = results[i]
    rows.push({
      program: game.id,
      caseId: c.id,
      variant,
      approach: 'ours',
      step: i,
      outcome,
      verdictPass: acted[i] === true && verification?.finalResult !== 'fail',
      achieved: outcome === 'right',
      how: res
        ? res.success
          ? `${res.method} ${res.recordedName ?? ''}→${res.foundName ?? ''}`
          : process.env.QA_BENCH_WHY
            ? `${res.errorMessage}\n${(res.strategiesTried ?? []).map((a) => `      ${a.strategy} ${a.outcome} ${a.detail ?? ''}`).join('\n')}`
            : res.errorMessage.slice(0, 100)
        : 'not run',
    })
  })
}

async function replayBaseline(game: Game, c: GameCase, caseFile: string, variant: Variant, how: Approach) {
  const tc = JSON.parse(readFileSync(caseFile, 'utf8'))
  const app = await game.launch(variant, xvfb.display, workDir)
  await sleep(500)
  if (c.focusTitle) await focusGame(c.focusTitle)
  const acted: boolean[] = []
  for (const [i, step] of c.steps.entries()) {
    const action = tc.actions[i]
    if (step.key) {
      // both baselines press the recorded key, as ours does
      await xdo('key', step.key)
      acted.push(true)
    } else if (how === 'coords') {
      await personClick({ x: action.x, y: action.y })
      acted.push(true)
    } else {
      // Airtest-style: the recorded crop, searched once at its recorded size over the whole screen, threshold 0.7
      await xdo('mousemove', '1270', '790')
      await sleep(300)
      const crop = await decodeImage(join(dirname(caseFile), action.element_crop_path))
      const frame = await nutScreen().capture()
      const hit = matchTemplate(frame, { ...crop, channels: 4 }, { minScale: 1, maxScale: 1, threshold: 0.7 })
      if (hit)
        await personClick({
          x: hit.box.x + Math.floor(hit.box.width / 2),
          y: hit.box.y + Math.floor(hit.box.height / 2),
        })
      acted.push(hit !== null)
    }
    await sleep(1200)
  }
  const truth = await app.finish()
  judgeRun(c, truth, acted, variant).forEach((outcome, i) => {
    if (variant === 'removal' && game.removalKeeps.includes((c.steps[i] as GameCase['steps'][number]).click)) return
    rows.push({
      program: game.id,
      caseId: c.id,
      variant,
      approach: how,
      step: i,
      outcome,
      achieved: outcome === 'right',
    })
  })
}

try {
  for (const game of games) {
    for (const c of game.cases.slice(0, maxCases).filter((k) => !caseIds || caseIds.some((id) => k.id.includes(id)))) {
      const t0 = performance.now()
      const caseFile = await recordCase(game, c)
      for (const variant of variantsArg) {
        if (!game.variants.includes(variant) || (c.variants && !c.variants.includes(variant))) continue
        for (const a of approaches) {
          if (a === 'ours') await replayOurs(game, c, caseFile, variant)
          else await replayBaseline(game, c, caseFile, variant, a)
        }
        if (jsonOut) {
          writeFileSync(jsonOut, JSON.stringify(rows, null, 2))
          writeFileSync(jsonOut.replace(/(\.json)?$/, '.labels.json'), JSON.stringify(labelRows, null, 2))
        }
      }
      const mine = rows.filter((r) => r.program === game.id && r.caseId === c.id && r.approach === 'ours')
      const notes = mine
        .filter((r) => r.outcome !== (r.variant === 'removal' ? 'refused' : 'right') || r.verdictPass !== r.achieved)
        .map((r) => `${r.variant}#${r.step}:${r.outcome}${r.verdictPass ? '/pass' : '/fail'} (${r.how})`)
      console.error(
        `${game.id}/${c.id}: ${((performance.now() - t0) / 1000).toFixed(0)} s ${caseFile}${notes.length ? `\n  ours off: ${notes.join('\n  ')}` : ''}`,
      )
    }
  }
  console.log(
    `bench/games: ${games.map((g) => `${g.id} (${g.toolkit})`).join(', ')}; ${rows.filter((r) => r.approach === 'ours').length} judged steps of ours; recorded ${analyze ? 'with' : 'without'} --analyze`,
  )
  console.log(summary(rows))
  console.log()
  console.log(perGame(rows))
  console.log()
  console.log(labelTable(labelRows))
} finally {
  await closeNut()
  await xvfb.stop({ deferToExit: true })
}
process.exit(0)
