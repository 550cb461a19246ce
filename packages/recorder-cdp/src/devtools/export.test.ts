import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type ElementIdentity, parseTestCase, type TestCase } from '@qa/model'
import { describe, expect, it } from 'vitest'
import { type DevtoolsRecording, type DevtoolsStep, devtoolsSelectorsFor, exportDevtoolsRecording } from './index'
import { fixture, importFixture } from './__tests__/fixtures'

describe('exportDevtoolsRecording', () => {
  it('writes a recording back from an imported one, restoring unsupported steps in place', () => {
    const original = fixture('login-korean.json') as DevtoolsRecording
    const { recording, warnings } = exportDevtoolsRecording(importFixture('login-korean.json').testCase)
    expect(recording.title).toBe('로그인 후 검색')
    expect(recording.steps.map((s) => s.type)).toEqual(original.steps.map((s) => s.type))
    expect(recording.steps[0]).toEqual(original.steps[0])
    expect(recording.steps[1]).toEqual(original.steps[1])
    expect(recording.steps[6]).toEqual(original.steps[6]) // the hover, verbatim
    const click = recording.steps[2] as DevtoolsStep
    expect(click.selectors?.[0]).toEqual(['aria/아이디[role="textbox"]'])
    expect(click.selectors).toEqual(expect.arrayContaining(original.steps[2]?.selectors ?? []))
    expect([click.offsetX, click.offsetY]).toEqual([52.5, 14])
    // stable first: aria, test id, css, xpath; no text/ of ours (로그인 is also a heading); DevTools's own after
    const loginSelectors = (recording.steps[7] as DevtoolsStep).selectors
    expect(loginSelectors?.slice(0, 3)).toEqual([
      ['aria/로그인[role="button"]'],
      ['[data-testid="login-submit"]'],
      ['xpath//html/body/main/form/button'],
    ])
    expect(loginSelectors?.at(-1)).toEqual(['text/로그인'])
    expect(recording.steps.slice(9, 11).map((s) => s.y)).toEqual([400, 250])
    expect(recording.steps[14]).toMatchObject({ type: 'click', button: 'secondary' })
    expect(recording.steps[5]).toMatchObject({ type: 'change', value: '' })
    expect(JSON.stringify(recording)).not.toContain('********')
    expect(warnings).toEqual([
      expect.stringMatching(/^actions\[3\] \(type\): is a password step: exported with an empty value/),
    ])
  })

  it('writes shadow paths, frames, chords, timers and the recording options back', () => {
    const original = fixture('shadow-iframe.json') as DevtoolsRecording
    const { recording } = exportDevtoolsRecording(importFixture('shadow-iframe.json').testCase)
    expect(recording.steps.map((s) => s.type)).toEqual(original.steps.map((s) => s.type))
    expect(recording).toMatchObject({ timeout: 7000, selectorAttribute: 'data-qa' })
    expect(recording.steps[0]).toEqual(original.steps[0])
    expect(recording.steps[2]?.selectors).toContainEqual(['qa-search-box', 'input.query'])
    expect(recording.steps.slice(4, 8)).toEqual(original.steps.slice(4, 8))
    expect(recording.steps[11]).toMatchObject({ frame: [0], offsetX: 64, offsetY: 20, duration: 120 })
    expect(recording.steps[12]).toEqual(original.steps[12])
    expect(recording.steps.slice(13)).toEqual(original.steps.slice(13))
  })

  it('warns that the steps after one that opened a new page are exported for the main page', () => {
    const raw = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../../../examples/web-login.json', import.meta.url)), 'utf8'),
    )
    const tc = parseTestCase(raw).testCase
    const k = tc.actions.findIndex((a) => a.actionType === 'click' && a.identity)
    tc.actions[k]!.opensPage = true
    const { warnings } = exportDevtoolsRecording(tc)
    expect(warnings).toContainEqual(
      expect.stringMatching(new RegExp(`^actions\\[${k}\\] \\(click\\): opens a new page`)),
    )
  })

  it('exports a recorded case: offsets from the box, most stable selectors first, no secret, warnings for the rest', () => {
    const raw = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../../../examples/web-login.json', import.meta.url)), 'utf8'),
    )
    const tc = parseTestCase(raw).testCase
    tc.actions.push(
      { timestamp: 1, actionType: 'click', x: 10, y: 10, description: 'coordinate-only' },
      { timestamp: 2, actionType: 'wait', x: 0, y: 0, durationMs: 250, description: 'Wait' },
      { timestamp: 3, actionType: 'drag', x: 0, y: 0, endX: 5, endY: 5, description: 'Drag' },
    )
    const { recording, warnings } = exportDevtoolsRecording(tc)
    expect(recording.steps.map((s) => s.type)).toEqual([
      'setViewport',
      'navigate',
      'click',
      'change',
      'click',
      'navigate',
      'waitForExpression',
    ])
    expect(recording.steps[2]).toMatchObject({ offsetX: 100, offsetY: 16 })
    expect(recording.steps[2]?.selectors).toEqual([
      ['aria/아이디[role="textbox"]'],
      ['#user-id'],
      ['input[name="username"]'],
      ['xpath//html/body/main/form/label[1]/input'],
    ])
    expect(recording.steps[3]).toMatchObject({ value: 'qa-user', selectors: recording.steps[2]?.selectors })
    expect(recording.steps[6]).toMatchObject({
      expression: 'new Promise(resolve => setTimeout(() => resolve(true), 250))',
    })
    expect(JSON.stringify(recording)).not.toContain('********')
    expect(warnings).toEqual([
      expect.stringMatching(
        /^actions\[1\] \(type\): has no element identity; assumed it types into the element clicked in actions\[0\]/,
      ),
      expect.stringMatching(/^actions\[2\] \(type\): has no element identity or selector/),
      expect.stringMatching(/^actions\[5\] \(click\): has no element identity or selector \(a coordinate-only step\)/),
      expect.stringMatching(/^actions\[7\] \(drag\): /),
    ])
  })

  it('assumes the first iframe for a recorded CSS frame path, with a warning', () => {
    const identity: ElementIdentity = {
      tagName: 'button',
      axRole: 'button',
      axName: '확인',
      boundingBox: { x: 10, y: 10, width: 20, height: 20 },
      framePath: ['iframe#pay'],
    }
    const tc: TestCase = {
      name: 'f',
      version: '3.0',
      platform: 'web',
      startUrl: 'http://x.test/',
      actions: [{ timestamp: 0, actionType: 'click', x: 15, y: 25, identity, description: '' }],
    }
    const { recording, warnings } = exportDevtoolsRecording(tc)
    expect(recording.steps[1]).toMatchObject({ frame: [0], offsetX: 5, offsetY: 15 })
    expect(warnings[0]).toMatch(/iframe path \["iframe#pay"\] has no DevTools frame index/)
  })

  it('builds shadow paths from identity.shadowPath and escapes ids', () => {
    const sel = devtoolsSelectorsFor(
      {
        tagName: 'input',
        id: '1st',
        shadowPath: ['my-app', 'my-form'],
        boundingBox: { x: 0, y: 0, width: 0, height: 0 },
      },
      { css: 'input.q' },
    )
    expect(sel).toEqual([
      ['my-app', 'my-form', '#\\31 st'],
      ['my-app', 'my-form', 'input.q'],
    ])
  })
})
