import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { type AssertChainNode, chooseAssertTarget, isMeaningfulNode } from './assert-target'
import { chooseClickTarget, clickTargetKind, DOCUMENT_TAGS } from './click-target'

const VIEWPORT = { width: 1280, height: 720 }
const box = (width: number, height: number) => ({ x: 0, y: 0, width, height })
const node = (tagName: string, extra: Partial<AssertChainNode> = {}): AssertChainNode => ({
  tagName,
  box: box(40, 20),
  ...extra,
})

/** SB Admin 2's logout modal, from its title up: Bootstrap 4 puts a mousedown listener on `.modal-dialog`. */
const modalTitleChain: AssertChainNode[] = [
  node('h5', { ownText: true, box: box(300, 24) }),
  node('div', { box: box(498, 60) }),
  node('div', { box: box(500, 200) }),
  node('div', { role: 'document', clickListener: true, box: box(500, 200) }),
  node('div', { role: 'dialog', tabIndex: -1, clickListener: true, box: box(1280, 720) }),
  node('body', { box: box(1280, 720) }),
  node('html', { box: box(1280, 720) }),
]

describe('chooseAssertTarget: the smallest meaningful element under an assert pick', () => {
  it('a modal title is the heading, not its dialog or document', () => {
    // what a click there means is the modal's `role=document` (its mousedown listener): not what an assertion is about
    expect(chooseClickTarget(modalTitleChain, { viewport: VIEWPORT })).toMatchObject({ kind: 'element', index: 3 })
    expect(chooseAssertTarget(modalTitleChain, 'visible', { viewport: VIEWPORT })).toMatchObject({
      kind: 'element',
      index: 0,
    })
    expect(chooseAssertTarget(modalTitleChain, 'text', { viewport: VIEWPORT })).toMatchObject({
      kind: 'element',
      index: 0,
    })
  })

  it('the text inside a button is the button; an icon inside a link is the link', () => {
    const button = [node('span', { ownText: true }), node('button', { box: box(80, 32) }), node('div'), node('body')]
    expect(chooseAssertTarget(button, 'visible', { viewport: VIEWPORT })).toMatchObject({ index: 1 })
    const link = [node('i'), node('a', { hasHref: true }), node('li'), node('ul'), node('body')]
    expect(chooseAssertTarget(link, 'text', { viewport: VIEWPORT })).toMatchObject({ index: 1 })
  })

  it('a value pick on a label is the label (its control is read from it); on text beside a field, not a button around it', () => {
    const label = [node('span', { ownText: true }), node('label', { labelsControl: true }), node('form'), node('body')]
    expect(chooseAssertTarget(label, 'value', { viewport: VIEWPORT })).toMatchObject({ index: 1 })
    const field = [node('input', { inputType: 'text' }), node('div'), node('body')]
    expect(chooseAssertTarget(field, 'value', { viewport: VIEWPORT })).toMatchObject({ index: 0 })
    const inButton = [node('span', { ownText: true }), node('button'), node('body')]
    // a button has no value: the words are the subject
    expect(chooseAssertTarget(inButton, 'value', { viewport: VIEWPORT })).toMatchObject({ index: 0 })
  })

  it('a whole card made one link is not the subject of a pick on its heading', () => {
    const card = [node('h3', { ownText: true }), node('a', { hasHref: true, box: box(1200, 500) }), node('body')]
    expect(chooseAssertTarget(card, 'visible', { viewport: VIEWPORT })).toMatchObject({ index: 0 })
  })

  it('a pick on a container’s padding is the container itself (the smallest element there), never the document', () => {
    const padding = [
      node('div', { box: box(500, 80) }),
      node('div', { role: 'document', box: box(500, 200) }),
      node('body'),
    ]
    expect(chooseAssertTarget(padding, 'visible', { viewport: VIEWPORT })).toMatchObject({ index: 0 })
    expect(chooseAssertTarget([node('body'), node('html')], 'visible', { viewport: VIEWPORT }).kind).toBe('none')
  })

  it('container roles with handlers are not subjects by themselves', () => {
    expect(isMeaningfulNode(node('div', { role: 'dialog', tabIndex: 0 }))).toBe(false)
    expect(isMeaningfulNode(node('div', { role: 'document' }))).toBe(false)
    expect(isMeaningfulNode(node('div', { role: 'document', ownText: true }))).toBe(true)
    expect(isMeaningfulNode(node('h2'))).toBe(true)
  })

  const arbNode: fc.Arbitrary<AssertChainNode> = fc.record({
    tagName: fc.constantFrom(
      'i',
      'span',
      'h5',
      'img',
      'div',
      'li',
      'a',
      'button',
      'label',
      'input',
      'section',
      'body',
      'html',
    ),
    role: fc.option(fc.constantFrom('button', 'dialog', 'document', 'heading', 'region', 'presentation'), {
      nil: null,
    }),
    hasHref: fc.boolean(),
    tabIndex: fc.option(fc.integer({ min: -1, max: 1 }), { nil: null }),
    clickListener: fc.boolean(),
    labelsControl: fc.boolean(),
    ownText: fc.boolean(),
    box: fc.record({
      x: fc.constant(0),
      y: fc.constant(0),
      width: fc.integer({ min: 0, max: 1400 }),
      height: fc.integer({ min: 0, max: 900 }),
    }),
  })

  test.prop([fc.array(arbNode, { maxLength: 10 }), fc.constantFrom('visible', 'text', 'value' as const)], {
    numRuns: 300,
  })(
    'never the document; never past the first meaningful element unless to a control; a subject when there is one',
    (chain, kind) => {
      const d = chooseAssertTarget(chain, kind, { viewport: VIEWPORT })
      const end = chain.findIndex((n) => DOCUMENT_TAGS.has(n.tagName.toLowerCase()))
      const usable = end === -1 ? chain : chain.slice(0, end)
      if (usable.length === 0) {
        expect(d.kind).toBe('none')
        return
      }
      expect(d.kind).toBe('element')
      if (d.kind !== 'element') return
      const picked = usable[d.index] as AssertChainNode
      expect(DOCUMENT_TAGS.has(picked.tagName.toLowerCase())).toBe(false)
      const firstMeaningful = usable.findIndex(isMeaningfulNode)
      const why = clickTargetKind(picked)
      const isControl = why !== null && why !== 'handler'
      // a pick above the first subject is only ever a control (a button around its label)
      if (firstMeaningful !== -1 && d.index > firstMeaningful) expect(isControl).toBe(true)
      // a handler-only element (a modal's document with a listener) is never chosen over a subject below it
      if (!isControl && firstMeaningful !== -1) expect(d.index).toBe(firstMeaningful)
      if (!isControl && firstMeaningful === -1) expect(d.index).toBe(0)
    },
  )
})
