import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { importDevtoolsRecording } from '../devtools'
import { planUrls, rebaseCaseUrls } from './url-plan'

// URL parts already in the form `new URL` keeps them in (lower-case ASCII, no characters it would escape).
const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/)
const path = fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join('/')}`)
const query = fc.option(
  fc
    .array(fc.tuple(segment, segment), { minLength: 1, maxLength: 3 })
    .map((kv) => `?${kv.map(([k, v]) => `${k}=${v}`).join('&')}`),
  { nil: '' },
)
const hash = fc.option(
  segment.map((h) => `#${h}`),
  { nil: '' },
)
const origin = fc
  .tuple(
    fc.constantFrom('http', 'https'),
    fc.constantFrom('127.0.0.1', 'localhost', 'app.example'),
    fc.integer({ min: 1025, max: 65535 }),
  )
  .map(([scheme, host, port]) => `${scheme}://${host}:${port}`)
const location = fc.record({ path, query, hash }).map((l) => ({ ...l, text: `${l.path}${l.query}${l.hash}` }))

describe('planUrls — qa replay --url (one case)', () => {
  it('opens exactly the URL given: another path and query than the recorded start', () => {
    const plan = planUrls({
      recordedStart: 'http://127.0.0.1:4000/pages/login.html?build=1',
      url: 'http://127.0.0.1:4000/pages/login.html?build=2#form',
    })
    expect(plan.start).toBe('http://127.0.0.1:4000/pages/login.html?build=2#form')
    expect(planUrls({ recordedStart: 'http://a.test:1/x', url: 'http://b.test:2/other/page?q=1' }).start).toBe(
      'http://b.test:2/other/page?q=1',
    )
  })

  it('Property: the start is the given URL; later URLs on the recorded origin keep their own path on the new origin', () => {
    fc.assert(
      fc.property(origin, origin, location, location, location, (recOrigin, newOrigin, recStart, given, later) => {
        fc.pre(recOrigin !== newOrigin)
        const plan = planUrls({ recordedStart: `${recOrigin}${recStart.text}`, url: `${newOrigin}${given.text}` })
        expect(plan.start).toBe(`${newOrigin}${given.text}`)
        expect(plan.rebase(`${recOrigin}${later.text}`)).toBe(`${newOrigin}${later.text}`)
      }),
      { numRuns: 200 },
    )
  })

  it('Property: URLs of any other origin are left as recorded', () => {
    fc.assert(
      fc.property(origin, origin, origin, location, (recOrigin, newOrigin, other, later) => {
        fc.pre(other !== recOrigin)
        const plan = planUrls({ recordedStart: `${recOrigin}/`, url: `${newOrigin}/start` })
        expect(plan.rebase(`${other}${later.text}`)).toBe(`${other}${later.text}`)
      }),
      { numRuns: 100 },
    )
  })

  it('resolves relative navigate URLs against the recorded start', () => {
    const plan = planUrls({ recordedStart: 'http://127.0.0.1:3000/app/login', url: 'http://127.0.0.1:4000/x' })
    expect(plan.rebase('/settings?tab=2')).toBe('http://127.0.0.1:4000/settings?tab=2')
  })

  it('without an override everything is as recorded, and without a start_url the given URL is the start', () => {
    expect(planUrls({ recordedStart: 'http://127.0.0.1:3000/a?b' }).start).toBe('http://127.0.0.1:3000/a?b')
    expect(planUrls({ recordedStart: 'http://127.0.0.1:3000/a' }).rebase('http://127.0.0.1:3000/c')).toBe(
      'http://127.0.0.1:3000/c',
    )
    expect(planUrls({ url: 'http://127.0.0.1:4000/p?q=1' }).start).toBe('http://127.0.0.1:4000/p?q=1')
    expect(planUrls({}).start).toBeNull()
  })
})

describe('planUrls — --base-url (many cases)', () => {
  it('Property: every recorded URL on the recorded origin, the start included, moves onto the base origin', () => {
    fc.assert(
      fc.property(origin, origin, location, location, (recOrigin, baseOrigin, recStart, later) => {
        const plan = planUrls({ recordedStart: `${recOrigin}${recStart.text}`, baseUrl: `${baseOrigin}/` })
        expect(plan.start).toBe(`${baseOrigin}${recStart.text}`)
        expect(plan.rebase(`${recOrigin}${later.text}`)).toBe(`${baseOrigin}${later.text}`)
      }),
      { numRuns: 200 },
    )
  })

  it('Property: a base with a path is a prefix of every moved path', () => {
    fc.assert(
      fc.property(
        origin,
        origin,
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        location,
        (recOrigin, baseOrigin, prefix, rec) => {
          const plan = planUrls({
            recordedStart: `${recOrigin}${rec.text}`,
            baseUrl: `${baseOrigin}/${prefix.join('/')}`,
          })
          const rest = rec.path === '/' ? '' : rec.path.slice(1)
          expect(plan.start).toBe(`${baseOrigin}/${prefix.join('/')}/${rest}${rec.query}${rec.hash}`)
        },
      ),
      { numRuns: 100 },
    )
  })

  it('--url and --base-url together: the start is --url, later URLs move onto the base', () => {
    const plan = planUrls({
      recordedStart: 'http://127.0.0.1:3000/login',
      url: 'http://127.0.0.1:9000/login?build=7',
      baseUrl: 'http://127.0.0.1:5000/',
    })
    expect(plan.start).toBe('http://127.0.0.1:9000/login?build=7')
    expect(plan.rebase('http://127.0.0.1:3000/list')).toBe('http://127.0.0.1:5000/list')
  })
})

describe('rebaseCaseUrls (qa import devtools --url / --base-url)', () => {
  // a DevTools recording: a click opens a popup, a step runs in it (its target is the popup's URL), an asserted
  // navigation, a URL assertion, and a link to another site that must stay where it is
  const recording = {
    title: 'popup',
    steps: [
      {
        type: 'navigate',
        url: 'http://127.0.0.1:3000/shop',
        assertedEvents: [{ type: 'navigation', url: 'http://127.0.0.1:3000/shop', title: '' }],
      },
      { type: 'click', target: 'main', selectors: [['#open']], offsetX: 1, offsetY: 1 },
      { type: 'click', target: 'http://127.0.0.1:3000/popup?id=7#top', selectors: [['#ok']], offsetX: 1, offsetY: 1 },
      {
        type: 'click',
        target: 'main',
        selectors: [['#next']],
        offsetX: 1,
        offsetY: 1,
        assertedEvents: [{ type: 'navigation', url: 'http://127.0.0.1:3000/next', title: 'Next' }],
      },
      { type: 'click', target: 'https://help.example.org/page', selectors: [['#help']], offsetX: 1, offsetY: 1 },
      { type: 'navigate', url: 'http://127.0.0.1:3000/done' },
    ],
  }
  const targets = (tc: ReturnType<typeof rebaseCaseUrls>) =>
    tc.actions.map((a) => (a.extra?.devtools as { target?: string } | undefined)?.target ?? null)

  it('--base-url moves popup targets, URL assertions and navigations on the recorded origin, and nothing else', () => {
    const { testCase } = importDevtoolsRecording(recording)
    const moved = rebaseCaseUrls(testCase, { baseUrl: 'http://staging.local:8080/app/' })
    expect(moved.startUrl).toBe('http://staging.local:8080/app/shop')
    expect(targets(moved).filter((t) => t !== null && t !== 'main')).toEqual([
      'http://staging.local:8080/app/popup?id=7#top',
      'https://help.example.org/page',
    ])
    expect(moved.actions.filter((a) => a.actionType === 'navigate').map((a) => a.url)).toEqual([
      'http://staging.local:8080/app/done',
    ])
    expect(moved.actions.filter((a) => a.assertion?.kind === 'url').map((a) => a.assertion?.expected)).toEqual([
      'http://staging.local:8080/app/next',
    ])
    // the imported case itself is left as it was
    expect(targets(testCase)).toContain('http://127.0.0.1:3000/popup?id=7#top')
  })

  it('--url moves them onto its origin, keeping their own paths', () => {
    const { testCase } = importDevtoolsRecording(recording)
    const moved = rebaseCaseUrls(testCase, { url: 'http://127.0.0.1:9000/shop?build=2' })
    expect(moved.startUrl).toBe('http://127.0.0.1:9000/shop?build=2')
    expect(targets(moved)).toContain('http://127.0.0.1:9000/popup?id=7#top')
  })
})
