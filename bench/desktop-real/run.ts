// Desktop replay on real X11 programs from Debian. Each case is recorded with real X input
// (xdotool, resting on each target before the click as a person does) through `qa record desktop` exactly as a
// user types it, then replayed on every variant of the program by ours (`qa replay --verify --json`) and by two
// baselines run here (the recorded coordinates; Airtest-style single-scale template matching, threshold 0.7).
// Ground truth is what the program itself reports (see programs.ts), never a replayer's verdict.
// Run from the repo root after `pnpm build`:
//   node --import tsx bench/desktop-real/run.ts [--only tk-rolodex,xaw] [--variants unchanged,moved] [--cases N]
//     [--json rows.json]      (--cases: the first N cases of each program; --json: every judged step)
//     [--approaches ours,coords,template]   (default: all three)
//     [--no-analyze]          (record without --analyze: no OCR labels, as in the first full run)
//   node --import tsx bench/desktop-real/run.ts --from rows.json[,more.json]   (the tables of earlier runs)
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { startDesktopRecording } from './desktop-recording'
import { parseReplayReport } from '@qa/model'
import { matchTemplate } from '@qa/matcher'
import { closeNut, decodeImage, nutScreen, startXvfb } from '@qa/recorder-desktop'
import { type BenchCase, PROGRAMS, type Program, type Truth, VARIANTS, type Variant } from './programs'

const run = promisify(execFile)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const repoRoot = resolve(import.meta.dirname, '../..')
const QA = join(repoRoot, 'apps/cli/bin/qa.js')
const APPROACHES = ['ours', 'coords', 'template'] as const
type Approach = (typeof APPROACHES)[number]
/** Per step: right (the intended target got it), wrong (another target), missed (clicked, nothing got it), refused. */
type Outcome = 'right' | 'wrong' | 'missed' | 'refused'

interface Row {
  program: string
  caseId: string
  variant: Variant
  approach: Approach
  step: number
  kind: 'click' | 'type'
  outcome: Outcome
  /** ours only: the step's verdict passed (replayed and not failed by verification). */
  verdictPass?: boolean
  /** the step's intended effect happened in the program (false for every step of a removal). */
  achieved: boolean
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : undefined
}
const only = arg('--only')?.split(',')
const variants = (arg('--variants')?.split(',') ?? [...VARIANTS]) as Variant[]
for (const v of variants) if (!VARIANTS.includes(v)) throw new Error(`--variants: unknown variant ${v} (${VARIANTS})`)
const approaches = (arg('--approaches')?.split(',') ?? [...APPROACHES]) as Approach[]
for (const a of approaches)
  if (!APPROACHES.includes(a)) throw new Error(`--approaches: unknown approach ${a} (${APPROACHES})`)
const jsonOut = arg('--json')
// recording with --analyze (QA_VISION=ocr) stores each click's OCR label, which the semantic and OCR strategies of
// the replay need; --no-analyze records as `qa record desktop` does without it (enrichment pending)
const analyze = !process.argv.includes('--no-analyze')
const casesArg = arg('--cases')
const maxCases = casesArg === undefined ? Number.POSITIVE_INFINITY : Number(casesArg)
if (!(maxCases >= 1)) throw new Error(`--cases: expected a positive number, got ${casesArg}`)
const programs = PROGRAMS.filter((p) => !only || only.some((o) => p.id.includes(o)))

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} % (${n}/${d})`)

function summary(rows: Row[]): string {
  const lines = [
    '| variant | approach | steps right | wrong clicks | removed targets refused | verdict agrees with truth | right steps failed | steps not right passed |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ]
  for (const variant of variants) {
    for (const approach of APPROACHES) {
      const rs = rows.filter((r) => r.variant === variant && r.approach === approach)
      if (!rs.length) continue
      const clicks = rs.filter((r) => r.kind === 'click')
      const wrong = clicks.filter((r) => r.outcome === 'wrong' || r.outcome === 'missed').length
      const right = variant === 'removal' ? '—' : pct(rs.filter((r) => r.outcome === 'right').length, rs.length)
      const refused =
        variant === 'removal' ? pct(clicks.filter((r) => r.outcome === 'refused').length, clicks.length) : '—'
      const ours = approach === 'ours'
      const verdict = ours ? pct(rs.filter((r) => r.verdictPass === r.achieved).length, rs.length) : 'no verdict'
      // the two ways a verdict disagrees: a false alarm (the step did its job and failed) and a false pass (the
      // worst outcome: a step that did not do its job reported as passed)
      const achieved = rs.filter((r) => r.achieved)
      const missedOrWrong = rs.filter((r) => !r.achieved)
      const falseFail = ours ? pct(achieved.filter((r) => !r.verdictPass).length, achieved.length) : '—'
      const falsePass = ours ? pct(missedOrWrong.filter((r) => r.verdictPass).length, missedOrWrong.length) : '—'
      lines.push(
        `| ${variant} | ${approach} | ${right} | ${pct(wrong, clicks.length)} | ${refused} | ${verdict} | ${falseFail} | ${falsePass} |`,
      )
    }
  }
  // the issue's targets over every step: wrong clicks ≤ 1 % of steps, verdicts agreeing in ≥ 98 % of steps
  const ours = rows.filter((r) => r.approach === 'ours' && variants.includes(r.variant))
  if (ours.length) {
    const wrong = ours.filter((r) => r.kind === 'click' && (r.outcome === 'wrong' || r.outcome === 'missed')).length
    const agree = ours.filter((r) => r.verdictPass === r.achieved).length
    const falseFail = ours.filter((r) => r.achieved && !r.verdictPass).length
    const falsePass = ours.filter((r) => !r.achieved && r.verdictPass).length
    lines.push(
      `| every variant | ours | — | ${pct(wrong, ours.length)} of steps | — | ${pct(agree, ours.length)} | ${pct(falseFail, ours.length)} of steps | ${pct(falsePass, ours.length)} of steps |`,
    )
  }
  return lines.join('\n')
}

/** Ours per program and variant: what a miss is made of. */
function perProgram(rows: Row[]): string {
  const lines = [
    '| program | variant | steps right (removal: refused) | wrong clicks | verdict agrees |',
    '| --- | --- | --- | --- | --- |',
  ]
  for (const program of [...new Set(rows.map((r) => r.program))]) {
    for (const variant of variants) {
      const rs = rows.filter((r) => r.program === program && r.variant === variant && r.approach === 'ours')
      if (!rs.length) continue
      const clicks = rs.filter((r) => r.kind === 'click')
      const good = rs.filter((r) => r.outcome === (variant === 'removal' ? 'refused' : 'right')).length
      const wrong = clicks.filter((r) => r.outcome === 'wrong' || r.outcome === 'missed').length
      const agree = rs.filter((r) => r.verdictPass === r.achieved).length
      lines.push(
        `| ${program} | ${variant} | ${pct(good, rs.length)} | ${pct(wrong, clicks.length)} | ${pct(agree, rs.length)} |`,
      )
    }
  }
  return lines.join('\n')
}

// --from a.json,b.json: print the tables of earlier runs' rows (e.g. programs run one at a time), run nothing
const from = arg('--from')
if (from) {
  const earlier: Row[] = from.split(',').flatMap((f) => JSON.parse(readFileSync(f, 'utf8')) as Row[])
  console.log(summary(earlier))
  console.log()
  console.log(perProgram(earlier))
  process.exit(0)
}

const xvfb = await startXvfb({ width: 1280, height: 800 })
process.env.DISPLAY = xvfb.display
const env = { ...process.env, DISPLAY: xvfb.display, QA_VISION: 'ocr', NO_COLOR: '1' }
const xdo = (...args: string[]) => run('xdotool', args, { env })
const workDir = mkdtempSync(join(tmpdir(), 'qa-desktop-real-'))
const rows: Row[] = []

/** Clicks as a person does: moves onto the target, rests on it, clicks. */
async function personClick(p: { x: number; y: number }) {
  await xdo('mousemove', String(p.x), String(p.y))
  await sleep(400)
  await xdo('click', '1')
}

async function recordCase(program: Program, c: BenchCase): Promise<string> {
  const caseFile = join(workDir, program.id, c.id, 'case.json')
  mkdirSync(dirname(caseFile), { recursive: true })
  const app = await program.launch('unchanged', xvfb.display, workDir)
  const rec = await startDesktopRecording(QA, caseFile, { analyze, env })
  await sleep(600)
  for (const step of c.steps) {
    if ('click' in step) {
      const p = app.targets.get(step.click)
      if (!p) throw new Error(`${program.id}: no target ${step.click}`)
      await personClick(p)
    } else {
      await xdo('type', '--delay', '80', step.type)
    }
    await sleep(900)
  }
  await xdo('key', 'F10')
  const code = await rec.exited
  const truth = await app.finish()
  if (code !== 0) throw new Error(`${program.id}/${c.id}: qa record desktop exited ${code}: ${rec.stderr()}`)
  // the recording itself must have reached every target, or the case is not what the bench says it is
  const judged = judgeRun(
    c,
    truth,
    c.steps.map(() => true),
    'unchanged',
  )
  const bad = judged.filter((o) => o !== 'right')
  if (bad.length)
    throw new Error(`${program.id}/${c.id}: the recording did not reach its targets: ${judged} ${rec.stdout()}`)
  const tc = JSON.parse(readFileSync(caseFile, 'utf8'))
  if (tc.actions.length !== c.steps.length) {
    throw new Error(`${program.id}/${c.id}: recorded ${tc.actions.length} actions for ${c.steps.length} steps`)
  }
  return caseFile
}

/**
 * Judges a run from the program's truth. `acted[i]` says the replayer clicked (or typed) at step i. The k-th press
 * the program saw belongs to the k-th step that clicked, unless the program tells each step's press itself.
 */
function judgeRun(c: BenchCase, truth: Truth, acted: boolean[], variant: Variant): Outcome[] {
  const presses = [...truth.presses]
  return c.steps.map((step, i) => {
    if (!acted[i]) return 'refused'
    if ('click' in step) {
      const got = truth.pressOfStep ? truth.pressOfStep(c.steps, i) : presses.shift()
      if (got === undefined) return 'missed'
      return got === step.click && variant !== 'removal' ? 'right' : 'wrong'
    }
    return truth.fields.get(step.into)?.includes(step.type) && variant !== 'removal' ? 'right' : 'wrong'
  })
}

async function replayOurs(program: Program, c: BenchCase, caseFile: string, variant: Variant) {
  const app = await program.launch(variant, xvfb.display, workDir)
  const reportDir = join(dirname(caseFile), `report-${variant}`)
  const r = await run(process.execPath, [QA, 'replay', caseFile, '--verify', '--json', '--report-dir', reportDir], {
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((e: { stdout?: string; code?: number; stderr?: string }) => e)
  const truth = await app.finish()
  if (!r.stdout) throw new Error(`${program.id}/${c.id}/${variant}: qa replay printed no report: ${r.stderr}`)
  const report = parseReplayReport(JSON.parse(r.stdout))
  const results = report.replayResults ?? []
  const acted = c.steps.map((_, i) => results[i]?.success === true)
  const outcomes = judgeRun(c, truth, acted, variant)
  outcomes.forEach((outcome, i) => {
    const step = c.steps[i] as BenchCase['steps'][number]
    // a removal judges clicks only: with the target gone, where typing lands says nothing more
    if (variant === 'removal' && !('click' in step)) return
    const verification = report.verificationResults[i]
    const verdictPass = acted[i] === true && verification?.finalResult !== 'fail'
    rows.push({
      program: program.id,
      caseId: c.id,
      variant,
      approach: 'ours',
      step: i,
      kind: 'click' in step ? 'click' : 'type',
      outcome,
      verdictPass,
      achieved: outcome === 'right',
    })
  })
}

async function replayBaseline(program: Program, c: BenchCase, caseFile: string, variant: Variant, how: Approach) {
  const tc = JSON.parse(readFileSync(caseFile, 'utf8'))
  const app = await program.launch(variant, xvfb.display, workDir)
  await sleep(500)
  const acted: boolean[] = []
  for (const [i, step] of c.steps.entries()) {
    const action = tc.actions[i]
    if ('type' in step) {
      await xdo('type', '--delay', '30', step.type)
      acted.push(true)
    } else if (how === 'coords') {
      await personClick({ x: action.x, y: action.y })
      acted.push(true)
    } else {
      // Airtest-style: the recorded crop, searched once at its recorded size over the whole screen, threshold 0.7
      const crop = await decodeImage(join(dirname(caseFile), action.element_crop_path))
      const frame = await nutScreen().capture()
      const hit = matchTemplate(frame, { ...crop, channels: 4 }, { minScale: 1, maxScale: 1, threshold: 0.7 })
      if (hit) {
        await personClick({
          x: hit.box.x + Math.floor(hit.box.width / 2),
          y: hit.box.y + Math.floor(hit.box.height / 2),
        })
      }
      acted.push(hit !== null)
    }
    await sleep(500)
  }
  const truth = await app.finish()
  judgeRun(c, truth, acted, variant).forEach((outcome, i) => {
    const step = c.steps[i] as BenchCase['steps'][number]
    // a removal judges clicks only: with the target gone, where typing lands says nothing more
    if (variant === 'removal' && !('click' in step)) return
    rows.push({
      program: program.id,
      caseId: c.id,
      variant,
      approach: how,
      step: i,
      kind: 'click' in step ? 'click' : 'type',
      outcome,
      achieved: outcome === 'right',
    })
  })
}

try {
  for (const program of programs) {
    for (const c of program.cases.slice(0, maxCases)) {
      const t0 = performance.now()
      const caseFile = await recordCase(program, c)
      for (const variant of variants) {
        for (const a of approaches) {
          if (a === 'ours') await replayOurs(program, c, caseFile, variant)
          else await replayBaseline(program, c, caseFile, variant, a)
        }
        if (jsonOut) writeFileSync(jsonOut, JSON.stringify(rows, null, 2))
      }
      const mine = rows.filter((r) => r.program === program.id && r.caseId === c.id && r.approach === 'ours')
      const notes = mine
        .filter((r) => r.outcome !== (r.variant === 'removal' ? 'refused' : 'right') || r.verdictPass !== r.achieved)
        .map((r) => `${r.variant}#${r.step}:${r.outcome}${r.verdictPass ? '/pass' : '/fail'}`)
      console.error(
        `${program.id}/${c.id}: ${((performance.now() - t0) / 1000).toFixed(0)} s${notes.length ? ` — ours off: ${notes.join(' ')}` : ''}`,
      )
    }
  }
  console.log(
    `bench/desktop-real: ${programs.map((p) => `${p.id} (${p.toolkit})`).join(', ')}; ${rows.filter((r) => r.approach === 'ours').length} judged steps of ours`,
  )
  console.log(summary(rows))
  console.log()
  console.log(perProgram(rows))
} finally {
  await closeNut()
  await xvfb.stop({ deferToExit: true })
}
process.exit(0)
