import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { cancel, email, identityOf, signIn } from './__tests__/login-page'
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
  // seed 001 Property 4 carried to web candidates: the score is a similarity in [0, 1], 1 for the element itself
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
})
