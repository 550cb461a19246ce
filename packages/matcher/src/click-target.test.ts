import { fc, test } from '@fast-check/vitest'
import type { ElementIdentity } from '@qa/model'
import { describe, expect, it } from 'vitest'
import {
  chooseClickTarget,
  clickTargetKind,
  DOCUMENT_TAGS,
  type HitChainNode,
  MIN_OVERSIZED_AREA,
  oversizedObjection,
  recordedTargetObjection,
} from './click-target'
import { locate } from './web/locate'
import { memoryCandidateSource } from './memory-candidate-source'
import type { CandidateElement } from './score-candidate'

const RUNS = { numRuns: 200 }
const box = (width: number, height: number, x = 0, y = 0) => ({ x, y, width, height })
const node = (tagName: string, extra: Partial<HitChainNode> = {}): HitChainNode => ({
  tagName,
  box: box(20, 20),
  ...extra,
})
const VIEWPORT = { width: 1280, height: 720 }

const arbBox = fc.record({
  x: fc.integer({ min: 0, max: 1200 }),
  y: fc.integer({ min: 0, max: 700 }),
  width: fc.integer({ min: 0, max: 1400 }),
  height: fc.integer({ min: 0, max: 900 }),
})
const arbNode: fc.Arbitrary<HitChainNode> = fc.record({
  tagName: fc.constantFrom('i', 'span', 'svg', 'path', 'img', 'div', 'li', 'a', 'button', 'label', 'input', 'nav'),
  role: fc.option(fc.constantFrom('button', 'link', 'presentation', 'navigation', 'switch', 'none'), { nil: null }),
  hasHref: fc.boolean(),
  inputType: fc.option(fc.constantFrom('hidden', 'checkbox', 'text'), { nil: null }),
  tabIndex: fc.option(fc.integer({ min: -1, max: 2 }), { nil: null }),
  hasOnclick: fc.boolean(),
  contentEditable: fc.boolean(),
  clickListener: fc.boolean(),
  labelsControl: fc.boolean(),
  box: arbBox,
})
/** A chain as the recorder sees it: elements, then (usually) body and html. */
const arbChain = fc
  .tuple(fc.array(arbNode, { maxLength: 8 }), fc.boolean())
  .map(([nodes, withDocument]) =>
    withDocument ? [...nodes, node('body', { box: box(1280, 3000) }), node('html', { box: box(1280, 3000) })] : nodes,
  )

describe('chooseClickTarget (what a click on a page means)', () => {
  it('an icon inside a link is a click on the link', () => {
    const chain = [node('i'), node('a', { hasHref: true, box: box(40, 40) }), node('li'), node('ul'), node('body')]
    expect(chooseClickTarget(chain, { viewport: VIEWPORT })).toMatchObject({ kind: 'element', index: 1, why: 'native' })
  })

  it('an svg path inside a button is a click on the button', () => {
    const chain = [node('path'), node('svg'), node('button'), node('div'), node('body'), node('html')]
    expect(chooseClickTarget(chain)).toMatchObject({ kind: 'element', index: 2 })
  })

  it('a label of a control is a target; a label of nothing is not', () => {
    expect(chooseClickTarget([node('span'), node('label', { labelsControl: true }), node('body')])).toMatchObject({
      kind: 'element',
      index: 1,
      why: 'label',
    })
    expect(chooseClickTarget([node('span'), node('label'), node('body')]).kind).toBe('coordinates')
  })

  it('body and html are never targets, even with a listener or tabindex', () => {
    const chain = [node('body', { clickListener: true, tabIndex: 0 }), node('html', { clickListener: true })]
    const d = chooseClickTarget(chain)
    expect(d.kind).toBe('coordinates')
    if (d.kind === 'coordinates') expect(d.warning).toMatch(/no interactive element under the point \(hit <body>\)/)
  })

  it('a page-sized container with a click listener (a React root) is not a target', () => {
    const chain = [node('p'), node('div', { clickListener: true, box: box(1280, 700) })]
    const d = chooseClickTarget([...chain, node('body')], { viewport: VIEWPORT })
    expect(d.kind).toBe('coordinates')
    if (d.kind === 'coordinates') expect(d.warning).toContain('covers too much of the page')
    // a small element with a listener is
    const card = [node('span'), node('div', { clickListener: true, box: box(200, 80) }), node('body')]
    expect(chooseClickTarget(card, { viewport: VIEWPORT })).toMatchObject({ kind: 'element', index: 1, why: 'handler' })
  })

  it('a link without href and an input of type hidden are not targets by themselves', () => {
    expect(clickTargetKind(node('a'))).toBeNull()
    expect(clickTargetKind(node('input', { inputType: 'hidden' }))).toBeNull()
    expect(clickTargetKind(node('div', { role: 'menuitem' }))).toBe('role')
    expect(clickTargetKind(node('div', { tabIndex: -1 }))).toBeNull()
  })

  test.prop([arbChain], RUNS)('the answer is the nearest interactive element below the document, or none', (chain) => {
    const d = chooseClickTarget(chain, { viewport: VIEWPORT })
    const end = chain.findIndex((n) => DOCUMENT_TAGS.has(n.tagName))
    const limit = end === -1 ? chain.length : end
    const viewportArea = VIEWPORT.width * VIEWPORT.height
    const counts = (n: HitChainNode) => {
      const kind = clickTargetKind(n)
      return kind !== null && !(kind === 'handler' && n.box.width * n.box.height > 0.25 * viewportArea)
    }
    const expected = chain.slice(0, limit).findIndex(counts)
    if (expected === -1) expect(d.kind).toBe('coordinates')
    else {
      expect(d).toMatchObject({ kind: 'element', index: expected })
      if (d.kind === 'element') expect(DOCUMENT_TAGS.has(chain[d.index]!.tagName)).toBe(false)
    }
  })
})

describe('recordedTargetObjection (was the recorded target a real target?)', () => {
  const identity = (over: Partial<ElementIdentity>): ElementIdentity => ({
    tagName: 'a',
    boundingBox: box(40, 40),
    ...over,
  })

  it('objects to body, html and empty identities', () => {
    expect(recordedTargetObjection(identity({ tagName: 'body', textContent: 'Home Contact' }))).toMatch(/<body>/)
    expect(recordedTargetObjection(identity({ tagName: 'HTML' }))).toMatch(/<html>/)
    expect(recordedTargetObjection(null)).toMatch(/no identity/)
    expect(recordedTargetObjection(identity({ tagName: '' }))).toMatch(/no tag name/)
    expect(recordedTargetObjection(identity({ tagName: 'div', boundingBox: box(0, 0) }))).toMatch(/nothing|no label/)
  })

  test.prop([fc.constantFrom(...DOCUMENT_TAGS), fc.string(), arbBox], RUNS)(
    'the document is never a real target, whatever else was recorded',
    (tagName, text, b) => {
      expect(
        recordedTargetObjection(identity({ tagName, textContent: text, axName: text, boundingBox: b })),
      ).not.toBeNull()
    },
  )

  test.prop(
    [
      fc.constantFrom('a', 'button', 'input', 'label', 'div', 'span'),
      fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
    ],
    RUNS,
  )('an element with a label is a real target', (tagName, axName) => {
    expect(recordedTargetObjection(identity({ tagName, axName, boundingBox: box(0, 0) }))).toBeNull()
  })
})

describe('oversizedObjection (is the answer far larger than the recorded element?)', () => {
  it('rejects a toolbar for an icon button and body for a link, accepts a restyled button', () => {
    expect(oversizedObjection(box(32, 32), box(1280, 56))).toMatch(
      /far larger than the recorded element: 1280×56 is 70\.0×/,
    )
    expect(oversizedObjection(box(120, 20), box(1280, 3000))).not.toBeNull()
    expect(oversizedObjection(box(80, 32), box(160, 40))).toBeNull()
    // a tiny checkbox answered by its label (200×20 < 64×64) is not called oversized
    expect(oversizedObjection(box(16, 16), box(200, 20))).toBeNull()
    expect(oversizedObjection(box(32, 32), box(1280, 56), 0)).toBeNull()
  })

  test.prop([arbBox, fc.double({ min: 0.1, max: 2.4, noNaN: true })], RUNS)(
    'growing each side by at most 2.4× (≤ 6× the area) is never an objection',
    (b, k) => {
      expect(oversizedObjection(b, { width: b.width * k, height: b.height * k })).toBeNull()
    },
  )

  test.prop([arbBox.filter((b) => b.width > 0 && b.height > 0), fc.double({ min: 2.5, max: 40, noNaN: true })], RUNS)(
    'growing each side by more than √6× is an objection once the answer is larger than 64×64',
    (b, k) => {
      const answer = { width: b.width * k, height: b.height * k }
      const objection = oversizedObjection(b, answer)
      if (answer.width * answer.height > MIN_OVERSIZED_AREA) expect(objection).not.toBeNull()
      else expect(objection).toBeNull()
    },
  )
})

describe('locate refuses answers that cannot be the recorded element', () => {
  const body: CandidateElement<string> = {
    handle: 'body',
    tagName: 'body',
    xpath: '/html/body',
    boundingBox: box(1280, 2000),
    textContent: 'Home Contact 3 15 AdminLTE',
    visible: true,
  }
  const menu: CandidateElement<string> = {
    handle: 'menu',
    tagName: 'a',
    href: '#',
    classNames: ['nav-link'],
    xpath: '/html/body/nav/ul/li[1]/a',
    boundingBox: box(40, 40, 10, 10),
    visible: true,
  }

  it('a recorded <body> is matched by no strategy, even though its CSS and XPath still match', async () => {
    const identity: ElementIdentity = {
      tagName: 'body',
      textContent: 'Home Contact 3 15 AdminLTE',
      xpath: '/html/body',
      boundingBox: box(1280, 2000),
    }
    const source = memoryCandidateSource([body, menu])
    const r = await locate(identity, source, { selectors: { css: 'body', xpath: '/html/body' } })
    expect(r.status).toBe('not_found')
    expect(source.calls).toEqual([])
    expect(r.attempts.filter((a) => a.strategy !== 'coordinate').every((a) => a.outcome === 'skipped')).toBe(true)
    expect(r.attempts[0]?.detail).toMatch(/<body>, the page itself/)
    const fallback = await locate(identity, source, { selectors: { css: 'body' }, allowCoordinateFallback: true })
    expect(fallback).toMatchObject({ status: 'found', strategy: 'coordinate', coordinateFallback: true })
  })

  it('a CSS answer far larger than the recorded element is rejected, and the cascade goes on', async () => {
    // the recorded icon button's CSS now matches its whole navbar (the button got another class)
    const navbar: CandidateElement<string> = {
      ...menu,
      handle: 'navbar',
      tagName: 'nav',
      classNames: ['nav-link'],
      boundingBox: box(1280, 56),
    }
    const moved: CandidateElement<string> = { ...menu, handle: 'menu', classNames: ['nav-link-x'] }
    const identity: ElementIdentity = {
      tagName: 'a',
      href: '#',
      classNames: ['nav-link'],
      boundingBox: box(40, 40, 10, 10),
    }
    const r = await locate(identity, memoryCandidateSource([navbar, moved]), { selectors: { css: '.nav-link' } })
    const css = r.attempts.find((a) => a.strategy === 'css')
    expect(css?.outcome).toBe('below_threshold')
    expect(css?.detail).toMatch(/far larger than the recorded element/)
    expect(r.element?.handle).not.toBe('navbar')
    const off = await locate(identity, memoryCandidateSource([navbar, moved]), {
      selectors: { css: '.nav-link' },
      maxAreaGrowth: 0,
    })
    expect(off.attempts.find((a) => a.strategy === 'css')?.detail ?? '').not.toMatch(/far larger/)
  })

  it('the same control drawn full width is not too large; a container with its name is', async () => {
    // swagger-ui 4 → 5: the schema toggle "Item" keeps its tag, role, class and height, and spans the row
    const recorded = {
      tagName: 'button',
      axRole: 'button',
      axName: 'Item',
      textContent: 'Item',
      classNames: ['model-box-control'],
      xpath: '/html/body/div/section/span/button',
    }
    const toggle = (
      handle: string,
      width: number,
      extra: Partial<CandidateElement<string>> = {},
    ): CandidateElement<string> => ({ handle, ...recorded, boundingBox: box(width, 39, 51, 936), ...extra })
    const identity: ElementIdentity = { ...recorded, boundingBox: box(87, 39, 51, 936), sameLabelCount: 0 }
    const wide = await locate(identity, memoryCandidateSource([toggle('toggle', 1178)]))
    expect(wide).toMatchObject({ status: 'found', strategy: 'role', element: { handle: 'toggle' } })
    // a row of the same name but another kind (a div with the button's class), or twice as tall, is still refused
    for (const other of [
      toggle('row', 1178, { tagName: 'div', axRole: 'generic' }),
      toggle('tall', 1178, { boundingBox: box(1178, 90, 51, 936) }),
      toggle('renamed', 1178, { axName: 'Item schema', textContent: 'Item schema' }),
    ]) {
      const r = await locate(identity, memoryCandidateSource([other]))
      expect(r.element?.handle, other.handle).toBeUndefined()
      expect(r.attempts.map((a) => a.detail ?? '').join(' | '), other.handle).toMatch(/far larger/)
    }
  })
})
