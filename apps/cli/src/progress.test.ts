import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createProgress } from './progress'

function capture(isTTY: boolean) {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number }
  stream.isTTY = isTTY
  stream.columns = 80
  let text = ''
  stream.on('data', (d) => {
    text += d
  })
  return { stream, text: () => text }
}

describe('progress', () => {
  it('prints plain lines and no control codes without a TTY', () => {
    const c = capture(false)
    const p = createProgress(c.stream)
    p.status('step 1/3')
    p.line(`${p.verdict('PASS')} login`)
    p.done()
    expect(c.text()).toBe('PASS login\n')
  })

  it('draws a status line and colours verdicts on a TTY, unless NO_COLOR', () => {
    const saved = process.env.NO_COLOR
    delete process.env.NO_COLOR
    try {
      const c = capture(true)
      const p = createProgress(c.stream)
      p.status('replaying step 1/3')
      p.line(`${p.verdict('FAIL')} save`)
      p.done()
      expect(c.text()).toContain('replaying step 1/3')
      expect(c.text()).toContain('\x1b[31mFAIL\x1b[0m save\n')
    } finally {
      if (saved !== undefined) process.env.NO_COLOR = saved
    }
    process.env.NO_COLOR = '1'
    try {
      const c = capture(true)
      const p = createProgress(c.stream)
      p.line(`${p.verdict('FAIL')} save`)
      p.done()
      expect(c.text()).not.toContain('\x1b[31m')
    } finally {
      if (saved === undefined) delete process.env.NO_COLOR
      else process.env.NO_COLOR = saved
    }
  })

  it('says nothing when silent (--json)', () => {
    const c = capture(true)
    const p = createProgress(c.stream, { silent: true })
    p.status('x')
    p.line('y')
    p.done()
    expect(c.text()).toBe('')
  })
})
