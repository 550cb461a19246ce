import type { Action } from '@qa/model'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { neededSecrets, replayCommand, secretsLine } from './secret-summary'

const typing = (secretEnv: string | undefined, axName: string, text = '********'): Action => ({
  timestamp: '2026-01-01T00:00:00.000Z',
  actionType: 'type',
  x: 10,
  y: 20,
  description: `Type ${text}`,
  text,
  ...(secretEnv ? { secretEnv } : {}),
  identity: { tagName: 'input', axRole: 'textbox', axName, boundingBox: { x: 0, y: 0, width: 100, height: 20 } },
})

describe('the secrets a recorded case needs', () => {
  it('names each variable once, in the order first typed, with its steps from 1 and the fields it is typed into', () => {
    const secrets = neededSecrets([
      typing(undefined, 'User', 'admin'),
      typing('QA_SECRET_PASSWORD', 'Password'),
      typing('QA_SECRET_PIN', 'PIN 번호'),
      typing('QA_SECRET_PASSWORD', 'Confirm password'),
    ])
    expect(secrets).toEqual([
      { name: 'QA_SECRET_PASSWORD', steps: [2, 4], fields: ['textbox "Password"', 'textbox "Confirm password"'] },
      { name: 'QA_SECRET_PIN', steps: [3], fields: ['textbox "PIN 번호"'] },
    ])
    expect(secretsLine(secrets)).toBe(
      'This case needs 2 secrets: QA_SECRET_PASSWORD (typed into textbox "Password" and textbox "Confirm password"), QA_SECRET_PIN (typed into textbox "PIN 번호").',
    )
    expect(replayCommand('cases/flow.json', secrets)).toBe(
      'QA_SECRET_PASSWORD=… QA_SECRET_PIN=… qa replay cases/flow.json',
    )
    expect(replayCommand('my cases/flow.json', [])).toBe("qa replay 'my cases/flow.json'")
    expect(secretsLine([])).toBeNull()
  })

  it('never carries a typed text, whatever was typed (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            secret: fc.boolean(),
            text: fc.string({ minLength: 1 }).map((t) => `§${t}§`),
            n: fc.integer({ min: 0, max: 3 }),
          }),
        ),
        (steps) => {
          // whatever a step's text holds (even a secret left in clear), the summary never shows it
          const actions = steps.map((s) => typing(s.secret ? `QA_SECRET_${s.n}` : undefined, 'Field', s.text))
          const secrets = neededSecrets(actions)
          const names = new Set(steps.filter((s) => s.secret).map((s) => `QA_SECRET_${s.n}`))
          expect(secrets.map((s) => s.name).sort()).toEqual([...names].sort())
          expect(secrets.flatMap((s) => s.steps).sort((a, b) => a - b)).toEqual(
            steps.flatMap((s, i) => (s.secret ? [i + 1] : [])),
          )
          const out = `${secretsLine(secrets) ?? ''} ${replayCommand('c.json', secrets)} ${JSON.stringify(secrets)}`
          expect(out).not.toContain('§')
        },
      ),
    )
  })
})
