import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { distanceToElement, findElementAtPosition } from './find-element-at-position'
import type { UiElement } from './types'

const element = fc
  .record({
    x: fc.integer({ min: 0, max: 500 }),
    y: fc.integer({ min: 0, max: 500 }),
    width: fc.integer({ min: 1, max: 200 }),
    height: fc.integer({ min: 1, max: 200 }),
  })
  .map((boundingBox): UiElement => ({ type: 'button', boundingBox }))
const point = fc.integer({ min: -50, max: 750 })
const tolerance = fc.integer({ min: 0, max: 100 })

describe('findElementAtPosition', () => {
  // find_element_at_position: the result is within tolerance, and no element is nearer
  test.prop([fc.array(element, { maxLength: 12 }), point, point, tolerance], { numRuns: 200 })(
    'returns the nearest element within tolerance, or null when none is that close',
    (elements, x, y, tol) => {
      const hit = findElementAtPosition({ elements }, x, y, tol)
      const distances = elements.map((e) => distanceToElement(e, x, y))
      if (hit === null) {
        expect(distances.every((d) => d > tol)).toBe(true)
      } else {
        expect(elements).toContain(hit)
        const d = distanceToElement(hit, x, y)
        expect(d).toBeLessThanOrEqual(tol)
        expect(Math.min(...distances)).toBe(d)
      }
    },
  )

  // a point inside some element always returns an element that contains it, the smallest one
  test.prop(
    [
      fc.array(element, { minLength: 1, maxLength: 12 }),
      fc.nat(),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
    ],
    {
      numRuns: 200,
    },
  )('a point inside an element picks the smallest element containing it', (elements, pick, fx, fy) => {
    const target = elements[pick % elements.length]!
    const x = target.boundingBox.x + fx * target.boundingBox.width
    const y = target.boundingBox.y + fy * target.boundingBox.height
    const hit = findElementAtPosition(elements, x, y)
    expect(hit).not.toBeNull()
    expect(distanceToElement(hit!, x, y)).toBe(0)
    const containing = elements.filter((e) => distanceToElement(e, x, y) === 0)
    const area = (e: UiElement) => e.boundingBox.width * e.boundingBox.height
    expect(area(hit!)).toBe(Math.min(...containing.map(area)))
  })

  test('default tolerance is 50 px', () => {
    const el: UiElement = { type: 'button', text: '시작', boundingBox: { x: 100, y: 100, width: 80, height: 40 } }
    expect(findElementAtPosition([el], 230, 120)).toBe(el)
    expect(findElementAtPosition([el], 231, 120)).toBeNull()
    expect(findElementAtPosition({ elements: [] }, 0, 0)).toBeNull()
  })
})
