/**
 * Assertions ↔ Chrome DevTools Recorder steps (pure). DevTools checks a page with `waitForElement` (count,
 * visibility and properties of the elements a selector matches), `waitForExpression` (a JavaScript
 * expression that must become truthy) and `assertedEvents` (a navigation the step must cause).
 *
 * Import: `waitForElement` → `visible` (no count, or ≥ 1), `hidden` (== 0), `count` (== / ≥ / ≤ n), or with one
 * property `innerText`/`textContent` → `text` equals, `value` → `value` equals, `checked` → `checked`. A
 * `waitForExpression` → `expression` (our own exported ones, marked `/* qa:assert … *\/`, come back as the
 * assertion they were). An asserted navigation with a URL → `url` equals after the step.
 * Export: the reverse; what `waitForElement` cannot say (text contains/matches, URLs) is a `waitForExpression`
 * that evaluates the same condition in the page, marked so that import restores it exactly.
 */
import type { Assertion, AssertionOp, JsonObject, JsonValue } from '@qa/model'
import type { DevtoolsSelector, DevtoolsStep } from './types'

const MARK = /^\/\* qa:assert (\{.*?\}) \*\/ /s

/** A `waitForElement` as an assertion, or why it has no equivalent. */
export function assertionFromWaitForElement(step: DevtoolsStep): Assertion | { unsupported: string } {
  const operator = (step.operator as string | undefined) ?? '>='
  const count = step.count as number | undefined
  const visible = step.visible as boolean | undefined
  const properties = step.properties as JsonObject | undefined
  const attributes = step.attributes as JsonObject | undefined
  const typed = typedWaitForElement(step, operator, count, visible, properties, attributes)
  if (!('unsupported' in typed)) return typed
  // no typed assertion says it: the reference's own check, evaluated in the page, as the reference does
  const expression = waitForElementExpression(step)
  return expression ? { kind: 'expression', expected: expression } : typed
}

function typedWaitForElement(
  step: DevtoolsStep,
  operator: string,
  count: number | undefined,
  visible: boolean | undefined,
  properties: JsonObject | undefined,
  attributes: JsonObject | undefined,
): Assertion | { unsupported: string } {
  void step
  if (attributes && Object.keys(attributes).length > 0)
    return { unsupported: 'waiting for element attributes has no equivalent' }
  const props = Object.entries(properties ?? {})
  if (visible === false) {
    // DevTools waits until "count operator n" is false: the negated count
    if (props.length > 0) return { unsupported: 'waiting until elements lack properties has no equivalent' }
    const n = count ?? 1
    if (operator === '>=') return { kind: 'count', op: 'at_most', expected: Math.max(0, n - 1) }
    if (operator === '<=') return { kind: 'count', op: 'at_least', expected: n + 1 }
    return { unsupported: `waiting until the count differs from ${n} has no equivalent` }
  }
  if (props.length > 0) {
    if (props.length > 1 || (count !== undefined && count !== 1) || operator !== '>=')
      return { unsupported: 'waiting for several properties, or properties with a count, has no equivalent' }
    const [name, value] = props[0] as [string, JsonValue]
    if ((name === 'innerText' || name === 'textContent') && typeof value === 'string')
      return { kind: 'text', expected: value }
    if (name === 'value' && typeof value === 'string') return { kind: 'value', expected: value }
    if (name === 'checked' && typeof value === 'boolean') return { kind: 'checked', expected: value }
    return { unsupported: `waiting for the property ${JSON.stringify(name)} has no equivalent` }
  }
  if (count === undefined && operator === '>=') return { kind: 'visible' }
  const n = count ?? 1
  if (operator === '==' && n === 0) return { kind: 'hidden' }
  if (operator === '>=' && n === 1) return { kind: 'visible' }
  const op: AssertionOp | undefined = operator === '>=' ? 'at_least' : operator === '<=' ? 'at_most' : undefined
  return op ? { kind: 'count', op, expected: n } : { kind: 'count', expected: n }
}

/** A `waitForExpression` as an assertion: ours restored (with the selectors of its target), any other truthy. */
export function assertionFromExpression(expression: string): { assertion: Assertion; selectors: DevtoolsSelector[] } {
  const marked = MARK.exec(expression)
  if (marked) {
    try {
      const { selectors, ...assertion } = JSON.parse(marked[1] as string) as Assertion & {
        selectors?: DevtoolsSelector[]
      }
      return { assertion, selectors: selectors ?? [] }
    } catch {
      // not ours after all: an expression like any other
    }
  }
  return { assertion: { kind: 'expression', expected: expression }, selectors: [] }
}

const js = (s: string) => JSON.stringify(s)

/** The first plain CSS selector (no `aria/`, `text/`, … prefix, no shadow path) of a DevTools selector list. */
function plainCss(selectors: readonly DevtoolsSelector[]): string | null {
  for (const s of selectors) {
    const one = Array.isArray(s) ? (s.length === 1 ? s[0] : undefined) : s
    if (typeof one === 'string' && !/^(aria|xpath|pierce|text)\//.test(one)) return one
  }
  return null
}

function textTest(op: AssertionOp, value: string, expected: string): string {
  if (op === 'matches') {
    const literal = /^\/(.+)\/([dgimsuyv]*)$/s.exec(expected)
    return literal
      ? `new RegExp(${js(literal[1] as string)}, ${js(literal[2] as string)}).test(${value})`
      : `new RegExp(${js(expected)}).test(${value})`
  }
  const want = `${js(expected)}.normalize("NFC").replace(/\\s+/g, " ").trim()`
  return op === 'contains' ? `${value}.includes(${want})` : `${value} === ${want}`
}

/**
 * The DevTools step of an assertion on an element with these selectors (fields to merge into a step), or why
 * it cannot be exported.
 */
export function assertionToDevtools(
  assertion: Assertion,
  selectors: DevtoolsSelector[],
): { step: Omit<DevtoolsStep, 'type'> & { type: 'waitForElement' | 'waitForExpression' } } | { skipped: string } {
  const op = assertion.op ?? null
  const needsTarget = !['url', 'expression'].includes(assertion.kind)
  if (needsTarget && selectors.length === 0) return { skipped: 'has no element identity or selector to assert on' }
  const wfe = (fields: JsonObject) => ({ step: { type: 'waitForElement' as const, selectors, ...fields } })
  const expression = (body: string, withSelectors: boolean) => {
    // the mark is JSON inside a block comment: a `*/` of the case's or the page's strings would end the comment and
    // run the rest as code in the page, so its `/` is escaped (`*\/`, which JSON reads back as `*/`)
    const mark = JSON.stringify({ ...withoutExtra(assertion), ...(withSelectors ? { selectors } : {}) }).replaceAll(
      '*/',
      '*\\/',
    )
    return { step: { type: 'waitForExpression' as const, expression: `/* qa:assert ${mark} */ ${body}` } }
  }
  switch (assertion.kind) {
    case 'visible':
      return wfe({})
    case 'hidden':
      return wfe({ operator: '==', count: 0 })
    case 'count':
      return wfe({
        operator: op === 'at_least' ? '>=' : op === 'at_most' ? '<=' : '==',
        count: Number(assertion.expected ?? 0),
      })
    case 'checked':
      return wfe({ properties: { checked: assertion.expected !== false } })
    case 'text':
    case 'value': {
      const expected = String(assertion.expected ?? '')
      if (!op || op === 'equals')
        return wfe({ properties: { [assertion.kind === 'text' ? 'innerText' : 'value']: expected } })
      const css = plainCss(selectors)
      if (!css) return { skipped: `a ${assertion.kind} ${op} assertion needs a CSS selector to be checked in DevTools` }
      const read =
        assertion.kind === 'text'
          ? 'String(el.innerText).normalize("NFC").replace(/\\s+/g, " ").trim()'
          : 'String(el.value ?? "").normalize("NFC").replace(/\\s+/g, " ").trim()'
      return expression(
        `(() => { const el = document.querySelector(${js(css)}); return !!el && ${textTest(op, read, expected)} })()`,
        true,
      )
    }
    case 'url': {
      const expected = String(assertion.expected ?? '')
      const here =
        expected.startsWith('/') && (!op || op === 'equals')
          ? '(location.pathname + location.search + location.hash)'
          : 'location.href'
      const body =
        op === 'matches'
          ? textTest('matches', here, expected)
          : op === 'contains'
            ? `${here}.includes(${js(expected)})`
            : `${here} === ${js(expected)}`
      return expression(body, false)
    }
    case 'expression':
      return { step: { type: 'waitForExpression', expression: String(assertion.expected ?? '') } }
  }
}

function withoutExtra(a: Assertion): Omit<Assertion, 'extra'> {
  const { extra: _extra, ...rest } = a
  const out: Record<string, unknown> = { kind: rest.kind }
  if (rest.op != null) out.op = rest.op
  if (rest.expected != null) out.expected = rest.expected
  return out as Omit<Assertion, 'extra'>
}

/**
 * A `waitForElement` as an in-page expression doing exactly what `@puppeteer/replay` checks: the elements of the
 * first selector group that names any (shadow-root paths, `pierce/`, `xpath/`, `text/`), `count operator n`, every
 * element carrying the attributes and (deeply) the properties, the whole compared with `visible`. Null when a group
 * uses `aria/` (the accessibility tree is not reachable from a page expression).
 */
export function waitForElementExpression(step: DevtoolsStep): string | null {
  const groups = (step.selectors ?? []).map((g) => (typeof g === 'string' ? [g] : g))
  if (groups.length === 0 || groups.some((g) => g.some((p) => p.startsWith('aria/')))) return null
  const args = JSON.stringify({
    groups,
    operator: (step.operator as string | undefined) ?? '>=',
    count: (step.count as number | undefined) ?? 1,
    visible: (step.visible as boolean | undefined) ?? true,
    attributes: (step.attributes as JsonObject | undefined) ?? null,
    properties: (step.properties as JsonObject | undefined) ?? null,
  }).replace(/\*\//g, '*\\/')
  return `((a) => { ${WAIT_FOR_ELEMENT_BODY} })(${args})`
}

const WAIT_FOR_ELEMENT_BODY = [
  'const pierce = (n) => (n.shadowRoot ? n.shadowRoot : n);',
  'const pierceAll = (n) => { const roots = [pierce(n)]; for (let i = 0; i < roots.length; i++) { const w = document.createTreeWalker(roots[i], NodeFilter.SHOW_ELEMENT); for (let e = w.nextNode(); e; e = w.nextNode()) if (e.shadowRoot) roots.push(e.shadowRoot) } return roots };',
  "const ok = (e) => e.nodeName !== 'SCRIPT' && e.nodeName !== 'STYLE' && !(document.head && document.head.contains(e));",
  "const valueNode = (e) => e instanceof HTMLSelectElement || e instanceof HTMLTextAreaElement || (e instanceof HTMLInputElement && !['checkbox', 'image', 'radio'].includes(e.type));",
  "const full = (n) => { if (n instanceof Element && !ok(n)) return ''; if (n instanceof Element && valueNode(n)) return n.value; let o = ''; for (let c = n.firstChild; c; c = c.nextSibling) o += c.nodeType === 3 ? c.nodeValue : c.nodeType === 1 ? full(c) : ''; if (n.shadowRoot) o += full(n.shadowRoot); return o };",
  'const text = (r, t) => { const f = []; for (const c of Array.from(r.childNodes)) if (c instanceof Element && ok(c)) f.push(...text(c.shadowRoot || c, t)); if (f.length) return f; return r instanceof Element && ok(r) && full(r).includes(t) ? [r] : [] };',
  "const part = (r, s) => { if (s.startsWith('pierce/')) return pierceAll(r).flatMap((x) => Array.from(x.querySelectorAll(s.slice(7)))); if (s.startsWith('xpath/')) { const it = document.evaluate(s.slice(6), r, null, XPathResult.ORDERED_NODE_ITERATOR_TYPE); const o = []; for (let n = it.iterateNext(); n; n = it.iterateNext()) o.push(n); return o } if (s.startsWith('text/')) return text(r, s.slice(5)); return Array.from(r.querySelectorAll(s)) };",
  'let els = [];',
  'for (const g of a.groups) { let cur = [document]; for (const [i, s] of g.entries()) { const next = []; for (const r of i === 0 ? cur : cur.map(pierce)) for (const e of part(r, s)) if (!next.includes(e)) next.push(e); cur = next; if (!cur.length) break } if (cur.length) { els = cur; break } }',
  'const n = els.length, c = a.count;',
  "let result = a.operator === '==' ? n === c : a.operator === '<=' ? n <= c : n >= c;",
  "const deep = (x, y) => { if (x === y) return true; if (!x || !y || typeof x !== 'object' || typeof y !== 'object') return false; return Object.entries(x).every(([k, v]) => deep(v, y[k])) };",
  'if (result && a.attributes) result = els.every((e) => Object.entries(a.attributes).every(([k, v]) => e.getAttribute(k) === v));',
  'if (result && a.properties) result = els.every((e) => deep(a.properties, e));',
  'return result === a.visible;',
].join(' ')
