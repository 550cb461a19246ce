import { fc, test } from '@fast-check/vitest'
import { type Action, type Assertion, type ElementIdentity, stringifyDocument, type TestCase } from '@qa/model'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { type DevtoolsStep, exportDevtoolsRecording } from './index'
import { assertionFromExpression } from './assertions'

/**
 * `qa export devtools` with a case's and a page's strings made hostile (every exporter must escape what it writes). The recording is
 * JSON, so every string must come back from `JSON.parse` exactly; the selectors must decode (as CSS does) to the
 * identity's values; and the only JavaScript the exporter writes, an assertion's `waitForExpression` with its
 * `/* qa:assert … *\/` mark, must parse, name only what the exporter writes, evaluate the condition on exactly the
 * input strings, and keep the mark a comment that gives the assertion back.
 */

/** Strings that end comments, literals, CSS strings and lines, mixed with anything else. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom('\n', '\r', '\f', '\u2028', '\u2029', '\u0085', '*/', '/*', '`', '${', "'", '"', '\\', '//'),
        fc.constantFrom('\0', ']', '[', '} */ ', '*/ globalThis.pwned = 1; /*', '"]', '\\"', '</script>'),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.constantFrom('\ud800', '\udc00', '로그인', '\u001b[31m', '0', '-1'),
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join('')),
)

const ORIGIN = 'http://127.0.0.1:3000'

interface Inputs {
  caseName: string
  description: string
  name: string
  testId: string
  id: string
  css: string
  xpath: string
  fallback: string
  typed: string
  option: string
  key: string
  path: string
  foreignUrl: string
  expectedText: string
  expectedContains: string
  expectedUrl: string
}

const inputs = fc.record<Inputs>({
  caseName: hostile,
  description: hostile,
  name: hostile,
  testId: hostile,
  id: hostile,
  // a stored CSS selector or XPath is the page's text; only its first character is fixed (not an XPath start)
  css: hostile.map((s) => `.c${s}`),
  xpath: hostile.map((s) => `//x${s}`),
  fallback: hostile.map((s) => `.f${s}`),
  typed: hostile,
  option: hostile,
  // not a chord (`Control+…`): a key name as typed
  key: hostile.map((s) => `k${s}`),
  path: hostile,
  foreignUrl: hostile,
  expectedText: hostile,
  expectedContains: hostile,
  expectedUrl: hostile,
})

function caseOf(i: Inputs): TestCase {
  const identity: ElementIdentity = {
    axRole: 'button',
    axName: i.name,
    dataTestId: i.testId,
    id: i.id,
    tagName: 'button',
    boundingBox: { x: 10, y: 10, width: 80, height: 20 },
  }
  const selectors = { css: i.css, xpath: i.xpath, fallbacks: [i.fallback] }
  const act = (fields: Partial<Action>): Action =>
    ({ timestamp: 0, actionType: 'click', x: 20, y: 20, description: i.description, ...fields }) as Action
  const assert = (assertion: Assertion, target = true) =>
    act({ actionType: 'assert', assertion, ...(target ? { identity, selectors } : {}) })
  return {
    name: i.caseName,
    version: '3.0',
    platform: 'web',
    createdAt: '2026-01-01T00:00:00Z',
    description: i.description,
    startUrl: `${ORIGIN}/${i.path}`,
    actions: [
      act({ identity, selectors }),
      act({ actionType: 'type', identity, selectors, text: i.typed }),
      act({ actionType: 'select', identity, selectors, value: i.option }),
      act({ actionType: 'key_press', key: i.key }),
      act({ actionType: 'navigate', url: `https://elsewhere.test/${i.foreignUrl}` }),
      assert({ kind: 'text', op: 'equals', expected: i.expectedText }),
      assert({ kind: 'text', op: 'contains', expected: i.expectedContains }),
      assert({ kind: 'value', op: 'contains', expected: i.expectedText }),
      assert({ kind: 'url', op: 'contains', expected: i.expectedContains }, false),
      assert({ kind: 'url', op: 'equals', expected: `/${i.expectedUrl}` }, false),
      assert({ kind: 'url', op: 'equals', expected: `https://elsewhere.test/${i.expectedUrl}` }, false),
    ],
  } as TestCase
}

/**
 * What a CSS parser reads from `text`, `[0, end)` a quoted string's body or an identifier: escapes decoded
 * (hex with one optional space, or any other character), NUL as U+FFFD; null where CSS would not read it as one
 * string or identifier (a raw line break, or a raw character an identifier cannot hold).
 */
function cssDecode(text: string, kind: 'string' | 'ident'): string | null {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (c === '\\') {
      const hex = /^[0-9a-fA-F]{1,6}/.exec(text.slice(i + 1))
      if (hex) {
        const code = Number.parseInt(hex[0], 16)
        out += String.fromCodePoint(code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? 0xfffd : code)
        i += hex[0].length
        if (/^[ \t\n]/.test(text.slice(i + 1))) i++
        continue
      }
      const next = text[i + 1]
      if (next === undefined || next === '\n' || next === '\r' || next === '\f') return null
      out += next
      i++
      continue
    }
    if (c === '\n' || c === '\r' || c === '\f') return null
    if (kind === 'ident' && !(/[A-Za-z0-9_-]/.test(c) || c.charCodeAt(0) >= 0x80)) return null
    if (kind === 'ident' && out === '' && /[0-9]/.test(c)) return null
    if (kind === 'ident' && out === '-' && /[0-9]/.test(c)) return null
    out += c === '\0' ? '\ufffd' : c
  }
  return out
}

/** The value CSS reads from `[data-testid="…"]`, or null. */
function attrValue(selector: string): string | null {
  const m = /^\[data-testid="([\s\S]*)"\]$/.exec(selector)
  if (!m) return null
  // the body must hold no unescaped quote (it would end the string early)
  const body = m[1] as string
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++
    else if (body[i] === '"') return null
  }
  return cssDecode(body, 'string')
}

/** What an HTML page can hold in an attribute: NUL is read as U+FFFD (by the HTML parser and by CSS). */
const asInPage = (s: string) => s.replaceAll('\0', '\ufffd')

/** Every identifier the exporter itself writes into a `waitForExpression`. */
const WRITTEN_BY_EXPORTER = new Set(
  (
    'location pathname search hash href includes document querySelector el String innerText value normalize ' +
    'replace trim RegExp test'
  ).split(' '),
)

/** Identifiers of an expression that the exporter did not write, and TypeScript's syntax errors. */
function checkExpression(expression: string): { foreign: string[]; errors: string[]; leadingComment: string } {
  const file = ts.createSourceFile('x.js', `(${expression})`, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS)
  const foreign: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && !WRITTEN_BY_EXPORTER.has(node.text)) foreign.push(node.text)
    ts.forEachChild(node, visit)
  }
  visit(file)
  const errors = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  )
  const ranges = ts.getLeadingCommentRanges(expression, 0) ?? []
  const first = ranges[0]
  return { foreign, errors, leadingComment: first ? expression.slice(first.pos, first.end) : '' }
}

/** Evaluates an exported expression in a stand-in page: `location` at `href`, every element holding `text`. */
function evaluate(expression: string, page: { href: string; text: string }): { result: unknown; queried: string[] } {
  const queried: string[] = []
  const url = new URL('http://stand.in/')
  const location = {
    href: page.href,
    pathname: page.href,
    search: '',
    hash: '',
    toString: () => url.href,
  }
  const document = {
    querySelector: (css: string) => {
      queried.push(css)
      return { innerText: page.text, value: page.text }
    },
  }
  const result = new Function('location', 'document', `return (${expression})`)(location, document)
  return { result, queried }
}

const normalized = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim()

describe('exportDevtoolsRecording with hostile strings', () => {
  test.prop([inputs], { numRuns: 150 })(
    'the recording parses as JSON and gives back exactly the input strings; its expressions run only what they say',
    (i) => {
      const tc = caseOf(i)
      const { recording } = exportDevtoolsRecording(tc)
      const text = stringifyDocument(recording)
      const parsed = JSON.parse(text) as { title: string; steps: DevtoolsStep[] }
      expect(parsed).toEqual(recording)
      expect(parsed.title).toBe(i.caseName)

      const of = (type: string) => parsed.steps.filter((s) => s.type === type)
      expect(of('navigate').map((s) => s.url)).toEqual([
        `${ORIGIN}/${i.path}`,
        `https://elsewhere.test/${i.foreignUrl}`,
      ])
      expect(of('change').map((s) => s.value)).toEqual([i.typed, i.option])
      expect(of('keyDown').map((s) => s.key)).toEqual([i.key])

      // every step on the element names it the same way: each selector decodes to the identity's value
      const targeted = parsed.steps.filter((s) => s.selectors)
      expect(targeted.map((s) => s.type)).toEqual(['click', 'change', 'change', 'waitForElement'])
      const clickSelectors = targeted[0]?.selectors
      for (const step of targeted) {
        const paths = (step.selectors ?? []).map((s) => (Array.isArray(s) ? s : [s]))
        for (const p of paths) expect(p).toHaveLength(1)
        const strings = paths.map((p) => p[0] as string)
        const name = i.name.trim()
        if (name && !/[[\]]/.test(name)) expect(strings).toContain(`aria/${name}[role="button"]`)
        const testIds = strings.filter((s) => s.startsWith('[data-testid='))
        if (i.testId) expect(testIds.map(attrValue)).toEqual([asInPage(i.testId)])
        const ids = strings.filter((s) => s.startsWith('#'))
        if (i.id) expect(ids.map((s) => cssDecode(s.slice(1), 'ident'))).toEqual([asInPage(i.id)])
        expect(strings).toContain(i.css)
        expect(strings).toContain(`xpath/${i.xpath}`)
        expect(strings).toContain(i.fallback)
        expect(step.selectors).toEqual(clickSelectors)
      }

      // the JavaScript the exporter writes: a leading mark that is one comment, then the condition on the inputs
      const expressions = of('waitForExpression')
      const wanted = tc.actions.filter(
        (a) => a.assertion && (a.assertion.kind === 'url' || a.assertion.op === 'contains'),
      )
      expect(expressions).toHaveLength(wanted.length)
      for (const [n, step] of expressions.entries()) {
        const assertion = (wanted[n] as Action).assertion as Assertion
        const expression = step.expression as string
        const { foreign, errors, leadingComment } = checkExpression(expression)
        expect(errors).toEqual([])
        expect(foreign).toEqual([])
        expect(leadingComment.startsWith('/* qa:assert ')).toBe(true)
        expect(JSON.parse(leadingComment.slice('/* qa:assert '.length, -' */'.length))).toMatchObject(assertion)
        const back = assertionFromExpression(expression)
        expect(back.assertion).toEqual(assertion)
        expect(back.selectors).toEqual(assertion.kind === 'url' ? [] : clickSelectors)
        const expected = String(assertion.expected)
        if (assertion.kind === 'url') {
          expect(evaluate(expression, { href: expected, text: '' }).result).toBe(true)
          expect(evaluate(expression, { href: `${expected}\u0001`, text: '' }).result).toBe(assertion.op === 'contains')
        } else {
          const { result, queried } = evaluate(expression, { href: '', text: `<${expected}>` })
          expect(result).toBe(normalized(`<${expected}>`).includes(normalized(expected)))
          expect(queried).toHaveLength(1)
          expect(back.selectors.map((p) => (Array.isArray(p) ? p[0] : p))).toContain(queried[0])
        }
      }
    },
    120_000, // a parse and a run per case: slow on a loaded machine, never a limit on speed
  )

  it('an expected text that ends the mark cannot add code to the expression (the probe)', () => {
    const probe = '*/ globalThis.pwned = 1; /*'
    const tc = caseOf({
      caseName: 'probe',
      description: '',
      name: 'Buy',
      testId: 'buy',
      id: 'buy',
      css: '.buy',
      xpath: '//button',
      fallback: '.f',
      typed: 'a',
      option: 'b',
      key: 'Enter',
      path: '',
      foreignUrl: '',
      expectedText: 'c',
      expectedContains: probe,
      expectedUrl: 'd',
    })
    const expressions = exportDevtoolsRecording(tc).recording.steps.filter((s) => s.type === 'waitForExpression')
    expect(expressions.length).toBeGreaterThan(0)
    for (const step of expressions) {
      expect(checkExpression(step.expression as string).foreign).toEqual([])
      evaluate(step.expression as string, { href: probe, text: probe })
    }
    expect((globalThis as { pwned?: number }).pwned).toBeUndefined()
  })
})
