import type { Action, TestCase } from '@qa/model'
import { afterAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { replayWebCase } from './replay/replayer'

const sessions: BrowserSession[] = []
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()))
})

const PAGE = 'data:text/html,<button style="width:300px;height:120px">Save</button>'
const click = (i: number): Action => ({
  timestamp: i,
  actionType: 'click',
  x: 150,
  y: 60,
  description: `Click button "Save" (${i + 1})`,
  identity: {
    axRole: 'button',
    axName: 'Save',
    tagName: 'button',
    boundingBox: { x: 8, y: 8, width: 300, height: 120 },
  },
})

describe('a browser crash during replay', () => {
  it('the step it happened in and every later step say the browser crashed, not "Element not found"', async () => {
    const session = await openBrowser()
    sessions.push(session)
    const testCase: TestCase = {
      name: 'crash',
      version: '3.0',
      platform: 'web',
      startUrl: PAGE,
      // step 2 kills the renderer, as an out-of-memory tab or a GPU crash would
      actions: [
        click(0),
        { timestamp: 1, actionType: 'navigate', x: 0, y: 0, url: 'chrome://crash', description: 'crash' },
        click(2),
        click(3),
      ],
    }
    const outcome = await replayWebCase(testCase, { page: session.page, caseDir: '/tmp', actionTimeoutMs: 2_000 })
    const messages = outcome.replayResults.map((r) => r.errorMessage)
    expect(outcome.replayResults[0]?.success).toBe(true)
    expect(messages[1]).toMatch(/^The browser crashed during this step \(the page crashed/)
    expect(messages[2]).toMatch(/^The browser crashed before this step \(the page crashed .*\); it did not run\./)
    expect(messages[3]).toMatch(/^The browser crashed before this step/)
    for (const m of messages) expect(m).not.toMatch(/Element not found/)
    expect(outcome.passed).toBe(false)
  }, 60_000)
})
