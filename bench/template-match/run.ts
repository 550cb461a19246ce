// Template matching at 1920×1080, the new exhaustive search (@qa/matcher matchTemplate) against the
// old coarse-to-fine beam search (baseline-match-template.ts), side by side in one process, on the same frames:
//   1. keypads rendered by sharp and decoded from PNG (20 look-alike keys differing by one glyph, three key sizes
//      and places): every key's crop, exact and with a margin, searched on the frame it was cut from; right = the
//      crop's own place with NCC ≥ 0.999;
//   2. the 120×48 crop of a synthetic UI screen (bench/matcher's case).
// Run from the repo root: node --import tsx bench/template-match/run.ts [--runs N]
import { type Frame, matchTemplate, type TemplateMatch } from '@qa/matcher'
import { crop, cropFrame, keypadPng, uiFrame } from '@qa/matcher/testing'
import { matchTemplate as baselineMatch } from './baseline-match-template'

const runsArg = process.argv.indexOf('--runs')
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

type Search = (frame: Frame, template: Frame) => TemplateMatch | null
const SEARCHES: [string, Search][] = [
  ['new (exhaustive, margin)', (f, t) => matchTemplate(f, t, { threshold: -1 })],
  ['old (coarse-to-fine beam)', (f, t) => baselineMatch(f, t, { threshold: -1 })],
]

const ROWS = [
  ['7', '8', '9', '/'],
  ['4', '5', '6', '*'],
  ['1', '2', '3', '-'],
  ['0', '.', '=', '+'],
  ['(', ')', '%', '^'],
]
const LAYOUTS = [
  { x: 770, y: 454, keyWidth: 64, keyHeight: 48, gap: 6, fontSize: 22 },
  { x: 1301, y: 777, keyWidth: 40, keyHeight: 32, gap: 2, fontSize: 16 },
  { x: 211, y: 333, keyWidth: 90, keyHeight: 60, gap: 8, fontSize: 30 },
]

interface Row {
  cases: number
  right: number
  ms: number[]
}
const rows = new Map<string, Row>(SEARCHES.map(([n]) => [n, { cases: 0, right: 0, ms: [] }]))

for (const layout of LAYOUTS) {
  const { frame, keys } = await keypadPng({ ...layout, rows: ROWS })
  for (const k of keys) {
    for (const pad of [0, layout.gap]) {
      const t = crop(frame, k.x - pad, k.y - pad, k.width + 2 * pad, k.height + 2 * pad)
      // interleaved: both searches see the same load
      for (const [name, search] of SEARCHES) {
        const row = rows.get(name) as Row
        const times: number[] = []
        let m: TemplateMatch | null = null
        for (let r = 0; r < RUNS; r++) {
          const t0 = performance.now()
          m = search(frame, t)
          times.push(performance.now() - t0)
        }
        row.cases++
        row.ms.push(median(times))
        if (m && m.box.x === k.x - pad && m.box.y === k.y - pad && m.score >= 0.999) row.right++
      }
    }
  }
}

console.log(`# Template matching at 1920×1080: new vs old, ${RUNS} runs per search (median)\n`)
console.log('## Keypads (sharp-rendered PNG, 20 look-alike keys × 3 layouts × exact and padded crops)\n')
console.log('| search | right (own place, NCC ≥ 0.999) | median ms per search | p90 ms |')
console.log('|---|---|---|---|')
const base = median((rows.get(SEARCHES[1]?.[0] as string) as Row).ms)
for (const [name, row] of rows) {
  const sorted = [...row.ms].sort((a, b) => a - b)
  const p90 = sorted[Math.floor(sorted.length * 0.9)] as number
  console.log(`| ${name} | ${row.right}/${row.cases} | ${median(row.ms).toFixed(1)} | ${p90.toFixed(1)} |`)
}
const ratio = median((rows.get(SEARCHES[0]?.[0] as string) as Row).ms) / base
console.log(`\ntime new / old: ${ratio.toFixed(1)}×`)

console.log('\n## A 120×48 crop of a synthetic UI screen (bench/matcher)\n')
const screen = uiFrame(1920, 1080, 7)
const ui = cropFrame(screen, 1553, 621, 120, 48)
console.log('| search | found | NCC | median ms |')
console.log('|---|---|---|---|')
const uiMs: number[] = []
for (const [name, search] of SEARCHES) {
  search(screen, ui)
  const times: number[] = []
  let m: TemplateMatch | null = null
  for (let r = 0; r < Math.max(5, RUNS); r++) {
    const t0 = performance.now()
    m = search(screen, ui)
    times.push(performance.now() - t0)
  }
  uiMs.push(median(times))
  console.log(
    `| ${name} | ${m?.box.x === 1553 && m.box.y === 621 ? 'yes' : 'no'} | ${m?.score.toFixed(3)} | ${median(times).toFixed(1)} |`,
  )
}
console.log(`\ntime new / old: ${((uiMs[0] as number) / (uiMs[1] as number)).toFixed(1)}×`)
