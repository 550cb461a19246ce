import { describe, expect, it } from 'vitest'
import { unreachableRoots } from './cdp-closed-shadow'

const el = (id: number, extra: object = {}) => ({ nodeName: 'DIV', backendNodeId: id, ...extra })
const root = (id: number, type: 'open' | 'closed' | 'user-agent', children: object[] = []) => ({
  nodeName: '#document-fragment',
  backendNodeId: id,
  shadowRootType: type,
  children,
})

describe('unreachableRoots', () => {
  it('lists closed roots and open roots inside them, never open roots of the page or user-agent roots', () => {
    const document = {
      nodeName: '#document',
      backendNodeId: 1,
      children: [
        el(2, { shadowRoots: [root(10, 'open', [el(11, { shadowRoots: [root(12, 'closed')] })])] }),
        el(3, { shadowRoots: [root(20, 'closed', [el(21, { shadowRoots: [root(22, 'open')] })])] }),
        el(4, { nodeName: 'INPUT', shadowRoots: [root(30, 'user-agent')] }),
      ],
    }
    expect(unreachableRoots(document).sort((a, b) => a - b)).toEqual([12, 20, 22])
  })

  it('finds nothing in a page without shadow roots', () => {
    expect(unreachableRoots({ nodeName: '#document', backendNodeId: 1, children: [el(2), el(3)] })).toEqual([])
  })
})
