import { describe, expect, it } from 'vitest'
import { assertDevtoolsRecording, importDevtoolsRecording } from './devtools-web'
import { WebError } from './errors'
import * as main from './index'

describe("the main entry's DevTools import", () => {
  const expectBad = (run: () => unknown, message: RegExp) => {
    let error: unknown
    try {
      run()
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(WebError)
    expect((error as WebError).code).toBe('WEB_BAD_DEVTOOLS_RECORDING')
    expect((error as WebError).message).toMatch(message)
    expect((error as WebError).hint).toMatch(/DevTools/)
  }

  it('rejects a bad recording with a WebError naming file, path and expectation', () => {
    expectBad(
      () => importDevtoolsRecording('hello', { file: 'recording.json' }),
      /^recording\.json: \(root\): expected an object with "title" and "steps"/,
    )
    expectBad(
      () => importDevtoolsRecording({ title: 'x', steps: [{ type: 'navigate' }] }, { file: 'recording.json' }),
      /^recording\.json: steps\[0\]\.url: expected non-empty string/,
    )
    expectBad(() => assertDevtoolsRecording({ title: 'x' }), /^recording: steps: expected array of steps, got nothing$/)
  })

  it('is what the package exports', () => {
    expect(main.importDevtoolsRecording).toBe(importDevtoolsRecording)
    expect(main.assertDevtoolsRecording).toBe(assertDevtoolsRecording)
  })

  it('imports a good recording as the DevTools room does', () => {
    const { testCase } = importDevtoolsRecording(
      { title: 'go', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
      { now: 0 },
    )
    expect(testCase.startUrl).toBe('https://example.com/')
    expect(testCase.name).toBe('go')
  })
})
