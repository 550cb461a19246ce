import { describe, expect, it } from 'vitest'
import { documentPoint } from './cdp-document-point'

describe('documentPoint', () => {
  it('adds the scroll of the top document to a viewport point', () => {
    expect(documentPoint(1191, 28, { pageX: 0, pageY: 500 })).toEqual({ x: 1191, y: 528 })
    expect(documentPoint(10, 20, { pageX: 30, pageY: 0 })).toEqual({ x: 40, y: 20 })
  })
  it('keeps the point when the scroll is unknown', () => {
    expect(documentPoint(10, 20, null)).toEqual({ x: 10, y: 20 })
  })
})
