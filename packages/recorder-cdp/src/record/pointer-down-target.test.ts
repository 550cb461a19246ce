import { describe, expect, it } from 'vitest'
import type { PageElementDescription } from '../injected/page-scripts'
import { isSameElement, targetAtPointerDown } from './pointer-down-target'

const describe_ = (over: Partial<PageElementDescription>): PageElementDescription => ({
  tagName: 'button',
  id: null,
  classNames: ['btn', 'try-out__btn'],
  iconClasses: [],
  name: null,
  type: null,
  placeholder: null,
  ariaLabel: null,
  dataTestId: null,
  role: null,
  implicitRole: 'button',
  accessibleName: 'Try it out',
  textContent: 'Try it out',
  href: null,
  xpath: '/html/body/div/button',
  css: 'button.btn',
  neighborText: [],
  framePath: [],
  shadowPath: [],
  box: { x: 10, y: 10, width: 80, height: 30 },
  visible: true,
  enabled: true,
  isPassword: false,
  value: null,
  groupPosition: null,
  ...over,
})
const box = { x: 10, y: 10, width: 80, height: 30 }

describe('targetAtPointerDown', () => {
  it('picks the interactive element up the chain (a span in a button is the button)', () => {
    const button = describe_({})
    const span = describe_({ tagName: 'span', implicitRole: null, xpath: '/html/body/div/button/span' })
    const got = targetAtPointerDown(
      {
        nodes: [
          { tagName: 'span', box },
          { tagName: 'button', box },
          { tagName: 'body', box },
        ],
        descriptions: [span, button],
        passwords: [],
      },
      { width: 1280, height: 720 },
    )
    expect(got).toBe(button)
  })
  it('is null with nothing interactive under the point, or nothing described', () => {
    const nodes = [
      { tagName: 'div', box },
      { tagName: 'body', box },
    ]
    expect(
      targetAtPointerDown({ nodes, descriptions: [describe_({ tagName: 'div' })], passwords: [] }, null),
    ).toBeNull()
    expect(targetAtPointerDown(null, null)).toBeNull()
    expect(
      targetAtPointerDown({ nodes: [{ tagName: 'button', box }], descriptions: [], passwords: [] }, null),
    ).toBeNull()
  })
})

describe('isSameElement', () => {
  it('a pressed button that gained a class and moved a pixel is the same button', () => {
    const now = describe_({ classNames: ['btn', 'active'], box: { x: 11, y: 10, width: 80, height: 30 } })
    expect(isSameElement(now, describe_({}))).toBe(true)
  })
  it('a button relabelled on mousedown ("Try it out" → "Cancel") is another element', () => {
    const now = describe_({ textContent: 'Cancel', accessibleName: 'Cancel' })
    expect(isSameElement(now, describe_({}))).toBe(false)
  })
  it('another element in its place is another element', () => {
    expect(isSameElement(describe_({ xpath: '/html/body/div/button[2]' }), describe_({}))).toBe(false)
    expect(isSameElement(describe_({ tagName: 'a' }), describe_({}))).toBe(false)
  })
})
