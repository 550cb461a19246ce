import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { cancel, email, identityOf, recordedPage, signIn } from './__tests__/login-page'
import * as reference from './__tests__/score-candidate-reference'
import {
  type CandidateElement,
  DEFAULT_WEIGHTS,
  identityToCandidate,
  rankCandidates,
  scoreCandidate,
} from './score-candidate'

const text = fc.option(fc.string({ maxLength: 20 }), { nil: undefined })
const box = fc.record({
  x: fc.integer({ min: 0, max: 2000 }),
  y: fc.integer({ min: 0, max: 2000 }),
  width: fc.integer({ min: 0, max: 500 }),
  height: fc.integer({ min: 0, max: 500 }),
})
const candidate: fc.Arbitrary<CandidateElement> = fc.record(
  {
    axRole: text,
    axName: text,
    ariaLabel: text,
    dataTestId: text,
    name: text,
    tagName: fc.constantFrom('button', 'a', 'input', 'div'),
    id: text,
    classNames: fc.option(fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 4 }), { nil: undefined }),
    textContent: text,
    xpath: text,
    boundingBox: fc.option(box, { nil: undefined }),
    neighborText: fc.option(fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), { nil: undefined }),
  },
  { requiredKeys: ['tagName'] },
)

describe('scoreCandidate', () => {
  // similarity is bounded, carried to web candidates: the score is a similarity in [0, 1], 1 for the element itself
  test.prop([candidate, candidate], { numRuns: 200 })('is in [0, 1] and 1 for an identical element', (a, b) => {
    const s = scoreCandidate(a, b).score
    expect(s).toBeGreaterThanOrEqual(0)
    expect(s).toBeLessThanOrEqual(1)
    expect(scoreCandidate(a, { ...a }).score).toBe(1)
  })

  it('ranks the recorded element above its siblings', () => {
    const identity = identityOf(signIn)
    const ranked = rankCandidates(identity, [cancel, email, { ...signIn, id: 'new-id' }])
    expect(ranked[0]?.element.id).toBe('new-id')
    expect(ranked[0]?.score).toBeGreaterThan(0.85)
    expect(ranked[1]?.score).toBeLessThan(0.7)
  })

  it('leaves out attributes the identity lacks, and honours custom weights', () => {
    const sparse = scoreCandidate(
      { tagName: 'button', textContent: 'OK' },
      { tagName: 'button', textContent: 'OK', id: 'x' },
    )
    expect(sparse.score).toBe(1)
    expect(Object.keys(sparse.attributes).sort()).toEqual(['tagName', 'textContent'])
    const onlyText = scoreCandidate(identityOf(signIn), cancel, {
      ...DEFAULT_WEIGHTS,
      ...Object.fromEntries(Object.keys(DEFAULT_WEIGHTS).map((k) => [k, 0])),
      textContent: 1,
    })
    expect(onlyText.score).toBeCloseTo(
      scoreCandidate({ tagName: 'x', textContent: 'Sign in' }, { textContent: 'Cancel' }).attributes.textContent ?? -1,
    )
    expect(identityToCandidate(identityOf(signIn))).not.toHaveProperty('capturedAt')
  })

  it('leaves out the tag "unknown" and an empty box: an id-only identity matches its element fully', () => {
    // what a DevTools `#save` selector alone says about the element
    const idOnly = { id: 'save', tagName: 'unknown', boundingBox: { x: 0, y: 0, width: 0, height: 0 } }
    const live = {
      id: 'save',
      tagName: 'button',
      textContent: '저장',
      boundingBox: { x: 40, y: 300, width: 90, height: 30 },
    }
    const scored = scoreCandidate(idOnly, live)
    expect(scored.score).toBe(1)
    expect(Object.keys(scored.attributes)).toEqual(['id'])
    expect(scoreCandidate(idOnly, { ...live, id: 'cancel' }).score).toBeLessThan(0.5)
  })
})

describe('the fast scorer equals the reference implementation', () => {
  const weights = fc.record(
    Object.fromEntries(Object.keys(DEFAULT_WEIGHTS).map((k) => [k, fc.constantFrom(0, 0.5, 1, 1.5, 2)])),
  ) as fc.Arbitrary<typeof DEFAULT_WEIGHTS>
  const korean = fc.constantFrom('로그인', '로그인하기', '저장', '임시 저장', 'Sign in', 'Log in', 'Save', '')
  const labelled = candidate.chain((c) =>
    fc
      .record({ axName: korean, textContent: korean, type: fc.constantFrom('submit', 'button', undefined) })
      .map((extra) => ({ ...c, ...extra })),
  )
  // every score and per-attribute similarity is bit-for-bit the old one (same order of the weighted sum)
  test.prop([fc.oneof(candidate, labelled), fc.array(fc.oneof(candidate, labelled), { maxLength: 12 }), weights], {
    numRuns: 200,
  })('on random candidates and weights', (identity, list, w) => {
    for (const c of list) {
      const fast = scoreCandidate(identity, c, w)
      const old = reference.scoreCandidate(identity, c, w)
      expect(fast.score).toBe(old.score)
      expect(fast.attributes).toEqual(old.attributes)
    }
    expect(rankCandidates(identity, list, w).map((r) => r.score)).toEqual(
      reference.rankCandidates(identity, list, w).map((r) => r.score),
    )
  })

  it('on a realistic page, repeated calls included (memoised values)', () => {
    const identity = identityOf(signIn)
    const page = [...recordedPage, ...recordedPage.map((e) => ({ ...e, id: `${e.id ?? ''}-2` }))]
    for (let round = 0; round < 2; round++)
      for (const c of page) expect(scoreCandidate(identity, c).score).toBe(reference.scoreCandidate(identity, c).score)
  })
})
