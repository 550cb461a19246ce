import { fc, test } from '@fast-check/vitest'
import type { Action, ElementIdentity, TestCase } from '@qa/model'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { exportPlaywrightTest } from './codegen'
import { commentText, jsString } from './internal/source-text'

/**
 * Generated code may carry a case's or a page's strings only as string literals or one-line comments.
 * These properties feed hostile strings through the exporter, then parse the spec with TypeScript and run it against
 * a stand-in for Playwright: it must parse, name no identifier the exporter does not write, and hand Playwright
 * exactly the input strings.
 */

/** Strings that end comments, literals and lines in JavaScript, mixed with anything else. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom('\n', '\r', '\u2028', '\u2029', '\u0085', '*/', '/*', '`', '${', "'", '"', '\\', '//', '\0'),
        fc.constantFrom("require('fs').writeFileSync('/tmp/pwned', 'x')", 'globalThis.pwned = 1', '})', '});'),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.constantFrom('\ud800', '\udc00', '로그인', '\u001b[31m'),
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join('')),
)

const identity = (name: string, testId: string): ElementIdentity => ({
  axRole: 'button',
  axName: name,
  dataTestId: testId,
  tagName: 'button',
  boundingBox: { x: 10, y: 10, width: 80, height: 20 },
})

const action = (fields: Partial<Action>): Action =>
  ({ timestamp: 0, actionType: 'click', x: 20, y: 20, description: '', ...fields }) as Action

const ORIGIN = 'http://127.0.0.1:3000'

interface Inputs {
  caseName: string
  casePath: string
  name: string
  testId: string
  typed: string
  key: string
  option: string
  foreignUrl: string
  path: string
  expectedText: string
  expectedContains: string
  secretEnv: string
}

function caseOf(i: Inputs): TestCase {
  const id = identity(i.name, i.testId)
  return {
    name: i.caseName,
    version: '3.0',
    platform: 'web',
    createdAt: '2026-01-01T00:00:00Z',
    startUrl: `${ORIGIN}/${i.path}`,
    actions: [
      action({ identity: id }),
      action({ actionType: 'type', identity: id, text: i.typed }),
      action({ actionType: 'type', identity: id, text: '********', secretEnv: i.secretEnv }),
      action({ actionType: 'key_press', key: i.key }),
      action({ actionType: 'select', identity: id, value: i.option }),
      action({ actionType: 'navigate', url: `https://elsewhere.test/${i.foreignUrl}` }),
      action({
        actionType: 'assert',
        identity: id,
        assertion: { kind: 'text', op: 'equals', expected: i.expectedText },
      }),
      action({
        actionType: 'assert',
        identity: id,
        assertion: { kind: 'text', op: 'contains', expected: i.expectedContains },
      }),
      action({ actionType: 'assert', assertion: { kind: 'url', op: 'contains', expected: i.expectedContains } }),
      action({ actionType: 'assert', identity: id, assertion: { kind: 'hidden' } }),
    ],
  } as TestCase
}

/** Every identifier the exporter itself writes; a name outside it came from the case. */
const WRITTEN_BY_EXPORTER = new Set(
  (
    'expect heal test page recorded at path baseURL URL href process env fromCase click dblclick fill selectOption ' +
    'label keyboard press type mouse wheel waitForTimeout goto locator toHaveURL toBeVisible toBeChecked toHaveText ' +
    'toContainText toHaveValue assert RegExp string not button clickCount'
  ).split(' '),
)

/** Identifiers of the spec that the exporter did not write (property names after `process.env.` excepted). */
function foreignIdentifiers(source: string): string[] {
  const file = ts.createSourceFile('spec.ts', source, ts.ScriptTarget.ES2022, true)
  const found: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && !WRITTEN_BY_EXPORTER.has(node.text)) {
      const parent = node.parent
      const isEnvName =
        ts.isPropertyAccessExpression(parent) && parent.name === node && parent.expression.getText() === 'process.env'
      if (!isEnvName) found.push(node.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

/** The spec as JavaScript, with TypeScript's syntax errors (one transpile serves both checks). */
function transpiled(source: string): { js: string; errors: string[] } {
  const out = ts.transpileModule(source, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  })
  return {
    js: out.outputText,
    errors: (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  }
}

/** Runs the spec against a stand-in for `@qa/playwright` and a page; returns every call it made, in order. */
async function run(js: string, env: Record<string, string>): Promise<unknown[][]> {
  const calls: unknown[][] = []
  /** An object whose every method call is logged as `[path, ...args]` and returns another such object. */
  const recorder = (path: string): unknown =>
    new Proxy(() => {}, {
      get: (_t, key) => (key === 'then' ? undefined : recorder(`${path}.${String(key)}`)),
      apply: (_t, _this, args) => {
        calls.push([path, ...args])
        return recorder(`${path}()`)
      },
    })
  let body: ((fixtures: unknown) => Promise<void>) | null = null
  const playwright = {
    test: (title: string, fn: (fixtures: unknown) => Promise<void>) => {
      calls.push(['test', title])
      body = fn
    },
    heal: (page: unknown) => recorder(`heal(${page === pageStandIn ? 'page' : '?'})`),
    expect: (value: unknown) => recorder(`expect(${value === pageStandIn ? 'page' : 'locator'})`),
  }
  const pageStandIn = recorder('page')
  const fakeRequire = (id: string) => {
    if (id === '@qa/playwright') return playwright
    throw new Error(`the spec required ${id}`)
  }
  class FakeURL {
    href: string
    constructor(path: string, base: string) {
      calls.push(['URL', path, base])
      this.href = `${base}|${path}`
    }
  }
  const module = { exports: {} }
  new Function('require', 'module', 'exports', 'URL', 'process', js)(fakeRequire, module, module.exports, FakeURL, {
    env,
  })
  expect(body).not.toBeNull()
  await body!({ page: pageStandIn, baseURL: undefined })
  return calls
}

const inputs = fc.record<Inputs>({
  caseName: hostile,
  casePath: hostile,
  name: hostile,
  testId: hostile,
  typed: hostile,
  key: hostile.map((s) => `k${s}`),
  option: hostile,
  foreignUrl: hostile,
  path: hostile,
  expectedText: hostile,
  expectedContains: hostile,
  secretEnv: fc.oneof(
    fc.constantFrom('QA_SECRET_PASSWORD', 'x'),
    hostile.map((s) => `S${s}`),
  ),
})

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('exportPlaywrightTest with hostile strings', () => {
  test.prop([inputs], { numRuns: 100 })(
    'the spec parses, names only what the exporter writes, and hands Playwright exactly the input strings',
    async (i) => {
      const { source } = exportPlaywrightTest(caseOf(i), { casePath: i.casePath })
      const { js, errors } = transpiled(source)
      expect(errors).toEqual([])
      expect(foreignIdentifiers(source)).toEqual([])
      const calls = await run(js, { [i.secretEnv]: 'the secret' })
      const step = (_n: number) => 'heal(page).fromCase'
      expect(calls).toEqual([
        ['test', i.caseName],
        ['URL', `/${i.path}`, ORIGIN],
        ['page.goto', `${ORIGIN}|/${i.path}`],
        [step(0), i.casePath, 0],
        ['heal(page).fromCase().click'],
        [step(1), i.casePath, 1],
        ['heal(page).fromCase().fill', i.typed],
        [step(2), i.casePath, 2],
        ['heal(page).fromCase().fill', 'the secret'],
        ['page.keyboard.press', i.key],
        [step(4), i.casePath, 4],
        ['heal(page).fromCase().selectOption', { label: i.option }],
        ['page.goto', `https://elsewhere.test/${i.foreignUrl}`],
        [step(6), i.casePath, 6],
        ['heal(page).fromCase().locator'],
        ['expect(locator).toHaveText', i.expectedText],
        [step(7), i.casePath, 7],
        ['heal(page).fromCase().locator'],
        ['expect(locator).toContainText', i.expectedContains],
        ['expect(page).toHaveURL', new RegExp(escapeRegExp(i.expectedContains))],
        [step(9), i.casePath, 9],
        ['heal(page).fromCase().assert'],
      ])
    },
    120_000, // a transpile and a run per case: slow on a loaded machine, never a limit on speed
  )

  test.prop([fc.string({ unit: 'binary', maxLength: 60 })], { numRuns: 300 })(
    'jsString evaluates to its input; commentText is one line',
    (s) => {
      expect(new Function(`return ${jsString(s)}`)()).toBe(s)
      expect(jsString(s)).not.toMatch(/[\n\r\u2028\u2029]/)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a comment must hold none
      expect(commentText(s)).not.toMatch(/[\n\r\u2028\u2029\u0000-\u001f]/)
    },
  )

  it('a case name, a test id or a DevTools title with a line break cannot add code to the spec (the probes)', async () => {
    const payload = "multi\nrequire('fs').writeFileSync('/tmp/qa-pwned', 'x')\n//"
    for (const variant of [payload, payload.replace(/\n/g, '\r'), payload.replace(/\n/g, '\u2028')]) {
      const tc = caseOf({
        caseName: variant,
        casePath: './case.json',
        name: 'Buy',
        testId: `buy${variant}`,
        typed: 'a',
        key: 'Enter',
        option: 'b',
        foreignUrl: '',
        path: '',
        expectedText: 'c',
        expectedContains: 'd',
        secretEnv: 'QA_SECRET_PASSWORD',
      })
      const { source } = exportPlaywrightTest(tc, { casePath: './case.json' })
      expect(foreignIdentifiers(source)).toEqual([])
      const calls = await run(transpiled(source).js, {})
      expect(calls[0]).toEqual(['test', variant])
    }
  })
})
