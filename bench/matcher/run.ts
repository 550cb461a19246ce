/**
 * @qa/matcher benchmarks. Run from the repo root: `node --import tsx bench/matcher/run.ts`
 * Options: --runs N (default 20), --baseline-runs N (default 3; one naive run takes seconds), --quick
 *
 * 1. Template matching: a 120×48 crop in a 1920×1080 UI-like frame, matchTemplate (multi-scale 0.5–2×,
 *    pyramid) vs a naive full-resolution NCC at scale 1 only (integral-image denominators, no pyramid).
 * 2. Cascade scoring: rank 2,000 candidates against an identity (the similarity strategy), vs a plain
 *    loop that re-normalises every label on every comparison.
 * 3. Healing accuracy on synthetic mutated pages: full cascade vs CSS-only vs role-only vs coordinates.
 */
import { argv } from 'node:process'
import type { ElementIdentity } from '@qa/model'
import {
  type CandidateElement,
  type Frame,
  locate,
  matchTemplate,
  memoryCandidateSource,
  rankCandidates,
  textSimilarity,
} from '../../packages/matcher/src/index'
import { cropFrame, rng, uiFrame } from '../../packages/matcher/src/internal/synthetic'

const arg = (name: string, def: number) => {
  const i = argv.indexOf(name)
  return i >= 0 ? Number(argv[i + 1]) : def
}
const quick = argv.includes('--quick')
const RUNS = arg('--runs', quick ? 5 : 20)
const BASELINE_RUNS = arg('--baseline-runs', quick ? 1 : 3)

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}
function time(fn: () => unknown, runs: number): { medianMs: number; result: unknown } {
  const ts: number[] = []
  let result: unknown
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    result = fn()
    ts.push(performance.now() - t0)
  }
  return { medianMs: median(ts), result }
}

/** The baseline: exhaustive NCC over every full-resolution position, template at scale 1. */
function naiveNcc(frame: Frame, tpl: Frame): { x: number; y: number; score: number } {
  const grey = (f: Frame) => {
    const g = new Float64Array(f.width * f.height)
    for (let i = 0; i < g.length; i++) {
      const p = i * f.channels
      g[i] =
        f.channels === 1
          ? (f.data[p] as number)
          : ((f.data[p] as number) * 77 + (f.data[p + 1] as number) * 150 + (f.data[p + 2] as number) * 29) >> 8
    }
    return g
  }
  const I = grey(frame)
  const T = grey(tpl)
  const n = T.length
  let mean = 0
  for (const v of T) mean += v
  mean /= n
  let tn = 0
  for (let i = 0; i < n; i++) {
    T[i] = (T[i] as number) - mean
    tn += (T[i] as number) ** 2
  }
  tn = Math.sqrt(tn)
  const W = frame.width
  const stride = W + 1
  const S = new Float64Array(stride * (frame.height + 1))
  const Q = new Float64Array(stride * (frame.height + 1))
  for (let y = 0; y < frame.height; y++) {
    let rs = 0
    let rq = 0
    for (let x = 0; x < W; x++) {
      const v = I[y * W + x] as number
      rs += v
      rq += v * v
      S[(y + 1) * stride + x + 1] = (S[y * stride + x + 1] as number) + rs
      Q[(y + 1) * stride + x + 1] = (Q[y * stride + x + 1] as number) + rq
    }
  }
  let best = { x: 0, y: 0, score: -2 }
  for (let y = 0; y + tpl.height <= frame.height; y++) {
    for (let x = 0; x + tpl.width <= W; x++) {
      let num = 0
      for (let j = 0; j < tpl.height; j++) {
        const row = (y + j) * W + x
        const trow = j * tpl.width
        for (let i = 0; i < tpl.width; i++) num += (T[trow + i] as number) * (I[row + i] as number)
      }
      const r0 = y * stride
      const r1 = (y + tpl.height) * stride
      const s =
        (S[r1 + x + tpl.width] as number) -
        (S[r1 + x] as number) -
        (S[r0 + x + tpl.width] as number) +
        (S[r0 + x] as number)
      const q =
        (Q[r1 + x + tpl.width] as number) -
        (Q[r1 + x] as number) -
        (Q[r0 + x + tpl.width] as number) +
        (Q[r0 + x] as number)
      const v = q - (s * s) / n
      const score = v > 1e-6 ? num / (tn * Math.sqrt(v)) : 0
      if (score > best.score) best = { x, y, score }
    }
  }
  return best
}

function benchTemplate() {
  const frame = uiFrame(1920, 1080, 7)
  const at = { x: 1553, y: 621 }
  const crop = cropFrame(frame, at.x, at.y, 120, 48)
  matchTemplate(frame, crop) // warm up
  const ours = time(() => matchTemplate(frame, crop), RUNS)
  const naive = time(() => naiveNcc(frame, crop), BASELINE_RUNS)
  const m = ours.result as ReturnType<typeof matchTemplate>
  const b = naive.result as ReturnType<typeof naiveNcc>
  console.log('\n## Template matching: 120×48 crop in 1920×1080')
  console.log(
    `matchTemplate (0.5–2×, pyramid)  median ${ours.medianMs.toFixed(1)} ms over ${RUNS} runs → ${JSON.stringify(m?.box)} score ${m?.score.toFixed(3)}`,
  )
  console.log(
    `naive NCC (1×, full resolution)  median ${naive.medianMs.toFixed(0)} ms over ${BASELINE_RUNS} runs → (${b.x}, ${b.y}) score ${b.score.toFixed(3)}`,
  )
  console.log(
    `ratio naive / ours: ${(naive.medianMs / ours.medianMs).toFixed(0)}×   target ≤ 30 ms: ${ours.medianMs <= 30 ? 'met' : 'NOT met'}`,
  )
}

const WORDS = [
  'Save',
  'Cancel',
  'Sign in',
  'Log out',
  'Settings',
  'Profile',
  '저장',
  '취소',
  '로그인',
  '설정',
  'Next',
  'Back',
  'Delete',
  'Edit',
  'Search',
  '검색',
  'Help',
  'Home',
  'Cart',
  'Buy now',
]
function page(n: number, seed: number): CandidateElement<number>[] {
  const r = rng(seed)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T
  return Array.from({ length: n }, (_, i) => {
    const label = `${pick(WORDS)} ${i % 7 === 0 ? pick(WORDS) : ''}`.trim()
    const role = pick(['button', 'link', 'textbox', 'checkbox'])
    return {
      handle: i,
      axRole: role,
      axName: label,
      tagName: role === 'link' ? 'a' : role === 'textbox' ? 'input' : 'button',
      id: r() < 0.5 ? `el-${i}` : null,
      classNames: [pick(['btn', 'link', 'field']), pick(['primary', 'secondary', 'ghost'])],
      textContent: role === 'textbox' ? null : label,
      name: role === 'textbox' ? `field${i}` : null,
      xpath: `/html/body/div[${1 + (i % 20)}]/div[${1 + Math.floor(i / 20)}]/${role === 'link' ? 'a' : 'button'}`,
      boundingBox: {
        x: Math.floor(r() * 1800),
        y: Math.floor(r() * 3000),
        width: 60 + Math.floor(r() * 120),
        height: 24 + Math.floor(r() * 20),
      },
      neighborText: [pick(WORDS), pick(WORDS)],
    }
  })
}
const toIdentity = (c: CandidateElement<number>): ElementIdentity => ({
  axRole: c.axRole,
  axName: c.axName,
  tagName: c.tagName ?? 'div',
  id: c.id,
  classNames: c.classNames ? [...c.classNames] : null,
  textContent: c.textContent,
  name: c.name,
  xpath: c.xpath,
  boundingBox: c.boundingBox ?? { x: 0, y: 0, width: 0, height: 0 },
  neighborText: c.neighborText ? [...c.neighborText] : null,
})

function benchScoring() {
  const identity = toIdentity(page(1, 3)[0] as CandidateElement<number>)
  const fresh = () => page(2000, 5) // new objects each run: no cached keys from a previous run
  const naiveRank = (cands: CandidateElement<number>[]) =>
    cands
      .map((c) => ({
        c,
        s:
          (textSimilarity(identity.axName, c.axName) * 1.5 +
            (identity.axRole === c.axRole ? 1.5 : 0) +
            textSimilarity(identity.textContent, c.textContent) * 1.5 +
            textSimilarity(identity.id, c.id) * 1.5 +
            textSimilarity(identity.xpath, c.xpath) * 0.5 +
            (identity.tagName === c.tagName ? 1 : 0)) /
          7.5,
      }))
      .sort((a, b) => b.s - a.s)
  rankCandidates(identity, fresh())
  const pages = Array.from({ length: RUNS }, fresh)
  let k = 0
  const ours = time(() => rankCandidates(identity, pages[k++ % RUNS] as CandidateElement<number>[]), RUNS)
  const pages2 = Array.from({ length: RUNS }, fresh)
  k = 0
  const naive = time(() => naiveRank(pages2[k++ % RUNS] as CandidateElement<number>[]), RUNS)
  console.log('\n## Cascade scoring: rank 2,000 candidates (similarity strategy, cold caches)')
  console.log(
    `rankCandidates (16 attributes)        median ${ours.medianMs.toFixed(2)} ms   target ≤ 5 ms: ${ours.medianMs <= 5 ? 'met' : 'NOT met'}`,
  )
  console.log(
    `naive loop (6 attributes, textSimilarity each time)  median ${naive.medianMs.toFixed(2)} ms   ratio naive / ours: ${(naive.medianMs / ours.medianMs).toFixed(2)}×`,
  )
}

/** Mutations a release typically makes to an element, applied 1–3 at a time. */
const MUTATIONS: ((c: CandidateElement<number>, r: () => number) => CandidateElement<number>)[] = [
  (c) => ({ ...c, id: c.id ? `${c.id}-v2` : 'new-id' }), // renamed id
  (c) => ({ ...c, classNames: ['css-1x9f', 'sc-abc'] }), // restyle (generated classes)
  (c) => ({ ...c, xpath: `${c.xpath?.replace(/\/[^/]+$/, '')}/span/${c.tagName}` }), // wrapped
  (c, r) => ({
    ...c,
    boundingBox: c.boundingBox && {
      ...c.boundingBox,
      x: c.boundingBox.x + Math.floor(r() * 200) - 100,
      y: c.boundingBox.y + 40,
    },
  }), // moved
  (c) => ({ ...c, axName: `${c.axName} now`, textContent: c.textContent ? `${c.textContent} now` : c.textContent }), // reworded
]

async function benchHealing(cases = quick ? 60 : 300) {
  const r = rng(42)
  const counts = {
    cascade: { right: 0, wrong: 0 },
    css: { right: 0, wrong: 0 },
    role: { right: 0, wrong: 0 },
    coordinate: { right: 0, wrong: 0 },
  }
  for (let k = 0; k < cases; k++) {
    const elements = page(60, 1000 + k)
    const ti = Math.floor(r() * elements.length)
    const target = elements[ti] as CandidateElement<number>
    const identity = toIdentity(target)
    const css = target.id ? `#${target.id}` : `${target.tagName}.${target.classNames?.join('.')}`
    let mutated = target
    const n = 1 + Math.floor(r() * 3)
    for (let m = 0; m < n; m++)
      mutated = (MUTATIONS[Math.floor(r() * MUTATIONS.length)] as (typeof MUTATIONS)[0])(mutated, r)
    // a decoy sharing the target's classes is added next to it
    const decoy: CandidateElement<number> = {
      ...target,
      handle: -1,
      id: null,
      axName: 'Decoy',
      textContent: 'Decoy',
      boundingBox: target.boundingBox && { ...target.boundingBox, x: target.boundingBox.x + 150 },
    }
    const now = elements.map((e, i) => (i === ti ? mutated : e)).concat(decoy)
    const source = memoryCandidateSource(now)
    const judge = (key: keyof typeof counts, handle: number | undefined) => {
      if (handle === undefined) return
      if (handle === target.handle) counts[key].right++
      else counts[key].wrong++
    }
    judge('cascade', (await locate(identity, source, { selectors: { css } })).element?.handle)
    judge(
      'css',
      (await locate(identity, source, { selectors: { css }, only: ['css'], minExactScore: 0 })).element?.handle,
    )
    judge('role', (await locate(identity, source, { only: ['role'], minExactScore: 0 })).element?.handle)
    // coordinates: whatever is under the recorded centre now
    const c = identity.boundingBox
    const under = now.find(
      (e) =>
        e.boundingBox &&
        c.x + c.width / 2 >= e.boundingBox.x &&
        c.x + c.width / 2 <= e.boundingBox.x + e.boundingBox.width &&
        c.y + c.height / 2 >= e.boundingBox.y &&
        c.y + c.height / 2 <= e.boundingBox.y + e.boundingBox.height,
    )
    judge('coordinate', under?.handle)
  }
  console.log(
    `\n## Healing accuracy: ${cases} mutated pages (60 elements + a same-class decoy; 1–3 of: renamed id, restyle, wrap, move, reword)`,
  )
  console.log('replay          right   wrong   not found   precision')
  for (const [k, v] of Object.entries(counts)) {
    const miss = cases - v.right - v.wrong
    console.log(
      `${k.padEnd(14)}  ${String(v.right).padStart(5)}   ${String(v.wrong).padStart(5)}   ${String(miss).padStart(9)}   ${(v.right + v.wrong ? v.right / (v.right + v.wrong) : 0).toFixed(3)}`,
    )
  }
}

console.log(`# @qa/matcher benchmarks (node ${process.version}, median of runs)`)
benchScoring()
await benchHealing()
benchTemplate()
