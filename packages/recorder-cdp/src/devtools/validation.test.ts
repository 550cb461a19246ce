import { describe, expect, it } from 'vitest'
import { importDevtoolsRecording } from './index'
import { DevtoolsError } from './errors'

describe('bad input', () => {
  const expectBad = (json: unknown, message: RegExp) => {
    let error: unknown
    try {
      importDevtoolsRecording(json, { file: 'recording.json' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(DevtoolsError)
    expect((error as DevtoolsError).code).toBe('WEB_BAD_DEVTOOLS_RECORDING')
    expect((error as DevtoolsError).message).toMatch(message)
    expect((error as DevtoolsError).hint).toMatch(/DevTools/)
  }
  const click = { type: 'click', selectors: [['#a']], offsetX: 1, offsetY: 1 }

  it('rejects what is not a recording, naming file, path and expectation', () => {
    expectBad('hello', /^recording\.json: \(root\): expected an object with "title" and "steps"/)
    expectBad([], /\(root\): expected an object/)
    expectBad({ title: 'x' }, /^recording\.json: steps: expected array of steps, got nothing$/)
    expectBad({ title: 'x', steps: {} }, /steps: expected array of steps, got \{\}/)
  })

  it('rejects bad steps', () => {
    expectBad(
      { title: 'x', steps: [click, click, click, { ...click, selectors: 'x' }] },
      /^recording\.json: steps\[3\]\.selectors: expected array of arrays of strings, got "x"$/,
    )
    expectBad(
      { title: 'x', steps: [{ selectors: [] }] },
      /steps\[0\]\.type: expected a step type such as "click", got nothing/,
    )
    expectBad({ title: 'x', steps: [42] }, /steps\[0\]: expected a step object, got 42/)
    expectBad(
      { title: 'x', steps: [{ ...click, selectors: [['#a', 3]] }] },
      /steps\[0\]\.selectors\[0\]: expected array of non-empty strings/,
    )
    expectBad(
      { title: 'x', steps: [{ type: 'change', selectors: [['#a']] }] },
      /steps\[0\]\.value: expected string, got nothing/,
    )
    expectBad({ title: 'x', steps: [{ ...click, offsetX: '3' }] }, /steps\[0\]\.offsetX: expected number, got "3"/)
    expectBad({ title: 'x', steps: [{ ...click, frame: [-1] }] }, /steps\[0\]\.frame: expected array of frame indices/)
    expectBad({ title: 'x', steps: [{ ...click, button: 'left' }] }, /steps\[0\]\.button: expected one of primary/)
    expectBad({ title: 'x', steps: [{ type: 'navigate' }] }, /steps\[0\]\.url: expected non-empty string/)
    expectBad(
      { title: 'x', steps: [{ type: 'setViewport', width: 0, height: 1 }] },
      /steps\[0\]\.width: expected positive number, got 0/,
    )
  })

  it('lists every problem, not only the first', () => {
    expectBad(
      { title: 3, steps: [{ type: 'keyDown' }, { type: 'click' }] },
      /title: expected string.*\n.*steps\[0\]\.key: .*\n.*steps\[1\]\.selectors: /s,
    )
  })
})
