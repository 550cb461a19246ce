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

  describe('the status line fits the terminal by display width (Hangul takes two columns)', () => {
    /** Columns of a line as a terminal draws it: Hangul syllables and jamo two, the rest (ASCII, ⠋, …) one. */
    const columns = (line: string) =>
      [...line].reduce((n, ch) => n + (/[\u1100-\u115f\u3130-\u318f\uac00-\ud7a3]/.test(ch) ? 2 : 1), 0)
    const drawn = (text: string, terminalColumns: number) => {
      const saved = process.env.NO_COLOR
      process.env.NO_COLOR = '1'
      try {
        const c = capture(true)
        c.stream.columns = terminalColumns
        const p = createProgress(c.stream)
        p.status(text)
        p.done()
        // the first draw: "\r\x1b[2K" + the line
        return (c.text().split('\r\x1b[2K')[1] ?? '').trimEnd()
      } finally {
        if (saved === undefined) delete process.env.NO_COLOR
        else process.env.NO_COLOR = saved
      }
    }

    it.each([
      [30, '[3/12] 저장 버튼을 눌러 다음 화면으로 이동합니다'],
      [21, '[1/2] 로그인 — 이메일 입력란에 홍길동@example.com 입력'],
      [40, '[7/9] Click button "설정 저장하기" on the 환경설정 대화상자 page'],
    ])('a long Korean status at %i columns is cut to fit, with an ellipsis', (cols, text) => {
      const line = drawn(text, cols)
      expect(columns(line)).toBeLessThanOrEqual(cols - 1)
      expect(columns(line)).toBeGreaterThanOrEqual(cols - 3) // a wide character may leave one column free
      expect(line.endsWith('…')).toBe(true)
      expect(text.startsWith(line.slice(2, -1).trimEnd())).toBe(true)
    })

    it('a Korean status that fits is drawn whole', () => {
      expect(drawn('[1/3] 저장', 30)).toBe('⠋ [1/3] 저장')
    })
  })
})
