import type { ElementIdentity } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { elementLabel } from './element-label'

const identity = (over: Partial<ElementIdentity>): ElementIdentity => ({ tagName: 'a', ...over }) as ElementIdentity

describe('elementLabel', () => {
  it('quotes a plain name, Hangul included', () => {
    expect(elementLabel(identity({ axName: '저장' }))).toBe('"저장"')
    expect(elementLabel(identity({ textContent: '  Save   draft ' }))).toBe('"Save draft"')
  })

  it('names a glyph-only icon button by its icon class, never by the invisible glyph', () => {
    expect(elementLabel(identity({ textContent: '\uf0e0', iconClasses: ['fas', 'fa-envelope'] }))).toBe(
      '(icon fa-envelope)',
    )
    expect(elementLabel(identity({ textContent: '\uf0c9', iconClasses: ['fa-solid', 'fa-bars', 'fa-fw'] }))).toBe(
      '(icon fa-bars)',
    )
    expect(elementLabel(identity({ textContent: '\ue5d2' }))).toBe('(icon)')
  })

  it('keeps the words beside a glyph and drops the glyph', () => {
    expect(elementLabel(identity({ textContent: '\uf0e0 Inbox' }))).toBe('"Inbox"')
  })

  it('answers null for an element without any name', () => {
    expect(elementLabel(identity({}))).toBeNull()
  })
})
