/**
 * Chrome DevTools Recorder import and export: converts a recording exported from DevTools → Recorder → Export
 * as JSON (the `@puppeteer/replay` `UserFlow` schema) into a web test case of the current format, and back. Pure functions:
 * the CLI does the file IO.
 *
 * Rules (also in the README):
 * - The first `setViewport` before any action → `viewport`; the first `navigate` before any action → `start_url`;
 *   later `navigate` steps → `navigate` actions.
 * - `click`/`doubleClick` → `click` (primary, or `button: middle | back | forward`), `right_click` (secondary),
 *   `double_click`; `hover` → `hover`. `change` → `type` (`text` = value), or `select` when a selector names a
 *   `<select>` (the replay selects the option of a `type` whose element is a `<select>`).
 *   `keyDown` → `key_press` (its `keyUp` is dropped; `keyDown Control, keyDown a, keyUp a, keyUp Control` becomes
 *   one `key_press "Control+a"`); a modifier held around clicks/hovers → their `modifiers`, else a key press at
 *   its keyUp. A keyUp with no keyDown before it, and a keyDown never released, are kept whole and replayed
 *   alone (the key released or pressed, as the reference does). `scroll` (absolute position) → `scroll` by the difference to the previous position of the same
 *   scroller (positions restart at 0 after a navigation); without selectors it scrolls the window. A
 *   `waitForExpression` that is a plain timer → `wait`. `waitForElement`, other `waitForExpression`s and asserted
 *   navigations with a URL → `assert` actions (`devtools-assertions.ts`); every asserted navigation is awaited.
 * - `target` (a popup's URL) is kept: the replay runs the step in the page at that URL (`devtoolsReplayPlan`).
 * - `emulateNetworkConditions`, a mid-flow `setViewport` and `close` become `wait` actions of 0 ms carrying the
 *   step, honoured by the replay and written back in place (network conditions before the first navigate go
 *   back before it). Steps with no equivalent (customStep, waitForElement with attributes, unknown types)
 *   produce a warning and such an action marked `unsupported`: it fails on replay with the reason.
 * - The element identity comes from the selectors: `aria/Name[role="r"]` → ax_name + ax_role, `text/…` →
 *   text_content, `xpath/…` → xpath, plain CSS → the attributes it names (#id, .class, [name], [data-testid],
 *   [aria-label], [placeholder], [type], [href]). The tag is the CSS type selector, else the last XPath step,
 *   else the tag the ARIA role implies (button, link → a, textbox/searchbox/checkbox/radio → input, img), else
 *   "unknown". A selector path with several entries (shadow DOM) gives `shadow_path` = the hosts and
 *   `css` = the last entry (Playwright CSS pierces open shadow roots). `frame: [i, j]` → `frame_path`
 *   `["iframe >> nth=i", "iframe >> nth=j"]`. The box is unknown (zeros); the click point `x, y` is the DevTools
 *   offset inside the element, and the exact step fields not represented otherwise (offsets, target, frame,
 *   assertedEvents, timeout, the original selectors) are kept in the action's `extra.devtools`.
 * - A `change` into a password field (CSS `[type=password]`, or an aria name/id/name like password/비밀번호)
 *   is never stored in clear: `text` is "********" and `secret_env` names the variable to supply at replay.
 * - Export: an action whose identity came from the recording (never measured on a page) gets back exactly the
 *   recording's selectors, nothing guessed from them. Otherwise selectors most stable first — aria, data-testid, id, stored CSS, CSS fallbacks, XPath, text, then
 *   the original DevTools selectors kept at import. Offsets are `x, y` minus the identity box when the box is
 *   known, else the kept offsets. Passwords export an empty value with a warning (never the secret, never the
 *   mask). `wait` → a timer `waitForExpression`. Steps without any selector (coordinate-only clicks, drags, typing
 *   with no known field) are skipped with a warning — DevTools cannot act on a bare coordinate; typing without
 *   an identity right after a click on an identified element uses that element's selectors (with a warning).
 */
import {
  type Action,
  type Assertion,
  CURRENT_FORMAT_VERSION,
  describeAssertion,
  type ElementIdentity,
  type JsonObject,
  type JsonValue,
  type KeyModifier,
  type MouseButton,
  type Selectors,
  type TestCase,
} from '@qa/model'
import { elementLabel } from './record/element-label'
import { WebError } from './errors'
import { assertionFromExpression, assertionFromWaitForElement, assertionToDevtools } from './devtools-assertions'
import type { DevtoolsRecording, DevtoolsSelector, DevtoolsStep } from './devtools-types'

export type { DevtoolsRecording, DevtoolsSelector, DevtoolsStep } from './devtools-types'

export interface DevtoolsImportOptions {
  /** Name of the input file, for error messages. */
  file?: string
  /** Case name when the recording has no title. */
  name?: string
  /** Epoch ms of the import (created_at, action timestamps); default now. */
  now?: number
  /** Prefix of the environment variables that hold secrets (default QA_SECRET_). */
  secretEnvPrefix?: string
}

export interface DevtoolsImportResult {
  testCase: TestCase
  warnings: string[]
}

export interface DevtoolsExportResult {
  recording: DevtoolsRecording
  warnings: string[]
}

/** The step types of the `@puppeteer/replay` schema. */
export const DEVTOOLS_STEP_TYPES = [
  'setViewport',
  'navigate',
  'click',
  'doubleClick',
  'change',
  'keyDown',
  'keyUp',
  'scroll',
  'hover',
  'waitForElement',
  'waitForExpression',
  'close',
  'customStep',
  'emulateNetworkConditions',
] as const

const SELECTOR_STEPS = new Set(['click', 'doubleClick', 'change', 'hover', 'waitForElement'])
const BUTTONS = ['primary', 'auxiliary', 'secondary', 'back', 'forward']
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta'])
const ROLE_TAGS: Record<string, string> = {
  button: 'button',
  link: 'a',
  textbox: 'input',
  searchbox: 'input',
  checkbox: 'input',
  radio: 'input',
  img: 'img',
}
const PASSWORD_WORDS = /passw|passwd|pwd|비밀번호|패스워드|암호/i
const MASK = '********'
const DEFAULT_SECRET_PREFIX = 'QA_SECRET_'

// ---------------------------------------------------------------------------------------------------------
// Validation

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function show(v: unknown): string {
  if (v === undefined) return 'nothing'
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 40 ? `${s.slice(0, 37)}...` : s
}

/**
 * Checks that `json` is a DevTools recording and returns it typed; throws `WebError`
 * (`WEB_BAD_DEVTOOLS_RECORDING`) listing every problem with its JSON path, what was expected and what was found.
 */
export function assertDevtoolsRecording(json: unknown, file = 'recording'): DevtoolsRecording {
  const issues: string[] = []
  const bad = (path: string, expected: string, got: unknown) =>
    issues.push(`${path}: expected ${expected}, got ${show(got)}`)
  if (!isObject(json)) {
    bad('(root)', 'an object with "title" and "steps" (a Chrome DevTools Recorder JSON export)', json)
  } else {
    if (json.title !== undefined && typeof json.title !== 'string') bad('title', 'string', json.title)
    if (json.timeout !== undefined && !isFiniteNumber(json.timeout)) bad('timeout', 'number', json.timeout)
    if (json.selectorAttribute !== undefined && typeof json.selectorAttribute !== 'string')
      bad('selectorAttribute', 'string', json.selectorAttribute)
    if (!Array.isArray(json.steps)) bad('steps', 'array of steps', json.steps)
    else for (const [i, step] of json.steps.entries()) checkStep(step, `steps[${i}]`, bad)
  }
  if (issues.length > 0) {
    const shown = issues.slice(0, 20).map((i) => `${file}: ${i}`)
    if (issues.length > 20) shown.push(`… and ${issues.length - 20} more problems`)
    throw new WebError('WEB_BAD_DEVTOOLS_RECORDING', shown.join('\n'), {
      hint: 'Export the recording again from Chrome DevTools (Recorder → Export → JSON). The file was not changed.',
    })
  }
  return json as unknown as DevtoolsRecording
}

function checkStep(step: unknown, path: string, bad: (path: string, expected: string, got: unknown) => void): void {
  if (!isObject(step)) {
    bad(path, 'a step object', step)
    return
  }
  const type = step.type
  if (typeof type !== 'string' || type === '') {
    bad(`${path}.type`, 'a step type such as "click"', type)
    return
  }
  const optNumber = (field: string) => {
    if (step[field] !== undefined && !isFiniteNumber(step[field])) bad(`${path}.${field}`, 'number', step[field])
  }
  const reqString = (field: string, nonEmpty = false) => {
    const v = step[field]
    if (typeof v !== 'string' || (nonEmpty && v === ''))
      bad(`${path}.${field}`, nonEmpty ? 'non-empty string' : 'string', v)
  }
  if (step.target !== undefined && typeof step.target !== 'string') bad(`${path}.target`, 'string', step.target)
  if (
    step.frame !== undefined &&
    !(Array.isArray(step.frame) && step.frame.every((f) => Number.isInteger(f) && f >= 0))
  )
    bad(`${path}.frame`, 'array of frame indices (non-negative integers)', step.frame)
  if (step.assertedEvents !== undefined && !Array.isArray(step.assertedEvents))
    bad(`${path}.assertedEvents`, 'array', step.assertedEvents)
  optNumber('timeout')
  if (step.selectors !== undefined || SELECTOR_STEPS.has(type)) {
    const sel = step.selectors
    if (!Array.isArray(sel)) bad(`${path}.selectors`, 'array of arrays of strings', sel)
    else
      for (const [j, s] of sel.entries()) {
        const ok =
          (typeof s === 'string' && s !== '') ||
          (Array.isArray(s) && s.length > 0 && s.every((p) => typeof p === 'string' && p !== ''))
        if (!ok) bad(`${path}.selectors[${j}]`, 'array of non-empty strings (or a string)', s)
      }
  }
  switch (type) {
    case 'click':
    case 'doubleClick':
      optNumber('offsetX')
      optNumber('offsetY')
      optNumber('duration')
      if (step.button !== undefined && !BUTTONS.includes(step.button as string))
        bad(`${path}.button`, `one of ${BUTTONS.join(', ')}`, step.button)
      break
    case 'change':
      reqString('value')
      break
    case 'keyDown':
    case 'keyUp':
      reqString('key', true)
      break
    case 'navigate':
      reqString('url', true)
      break
    case 'setViewport':
      for (const f of ['width', 'height'])
        if (!isFiniteNumber(step[f]) || (step[f] as number) <= 0) bad(`${path}.${f}`, 'positive number', step[f])
      optNumber('deviceScaleFactor')
      break
    case 'scroll':
      optNumber('x')
      optNumber('y')
      break
    case 'waitForExpression':
      reqString('expression')
      break
  }
}

// ---------------------------------------------------------------------------------------------------------
// Selectors ↔ identity

const normalizePath = (s: DevtoolsSelector): string[] => (typeof s === 'string' ? [s] : s)
const selectorKey = (s: DevtoolsSelector) => JSON.stringify(normalizePath(s))

type SelectorKind = 'aria' | 'xpath' | 'pierce' | 'text' | 'css'
function kindOf(selector: string): { kind: SelectorKind; body: string } {
  for (const kind of ['aria', 'xpath', 'pierce', 'text'] as const)
    if (selector.startsWith(`${kind}/`)) return { kind, body: selector.slice(kind.length + 1) }
  return { kind: 'css', body: selector }
}

/** `aria/Name[role="button"]` → name and role (puppeteer strips every `[attr="v"]` part and trims the rest). */
export function parseAriaSelector(body: string): { name: string; role: string | null } {
  let role: string | null = null
  const name = body
    .replace(/\[\s*(\w+)\s*=\s*(["'])(.*?)\2\s*\]/g, (_m, attr: string, _q: string, value: string) => {
      if (attr === 'role') role = value
      return ''
    })
    .trim()
  return { name, role }
}

function cssUnescape(s: string): string {
  return s.replace(/\\([0-9a-fA-F]{1,6})\s?|\\([\s\S])/g, (_m, hex: string | undefined, ch: string | undefined) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : (ch ?? ''),
  )
}

/** CSS identifier escaping (CSS.escape, for ids in `#id`). */
export function cssEscapeIdent(s: string): string {
  let out = ''
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string
    const code = c.charCodeAt(0)
    if (code === 0) out += '\uFFFD'
    else if (
      (code >= 1 && code <= 0x1f) ||
      code === 0x7f ||
      (/[0-9]/.test(c) && (i === 0 || (i === 1 && s[0] === '-')))
    )
      out += `\\${code.toString(16)} `
    else if (i === 0 && c === '-' && s.length === 1) out += '\\-'
    else if (code >= 0x80 || /[A-Za-z0-9_-]/.test(c)) out += c
    else out += `\\${c}`
  }
  return out
}

/**
 * A CSS string: `\` and `"` escaped, control characters as hex escapes (a raw line break would end the string and
 * make the selector invalid), NUL as U+FFFD (what CSS and an HTML attribute read it as).
 */
const quoteAttr = (v: string) => {
  let out = ''
  for (const c of v) {
    const code = c.charCodeAt(0)
    if (code === 0) out += '\uFFFD'
    else if (code <= 0x1f || code === 0x7f) out += `\\${code.toString(16)} `
    else if (c === '\\' || c === '"') out += `\\${c}`
    else out += c
  }
  return `"${out}"`
}

/** The last compound selector of a CSS selector (after the last combinator outside brackets and quotes). */
function lastCompound(css: string): string {
  let bracket = 0
  let paren = 0
  let quote = ''
  let start = 0
  for (let i = 0; i < css.length; i++) {
    const c = css[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
      continue
    }
    if (c === '\\') i++
    else if (c === '"' || c === "'") quote = c
    else if (c === '[') bracket++
    else if (c === ']') bracket--
    else if (c === '(') paren++
    else if (c === ')') paren--
    else if (bracket === 0 && paren === 0 && /[\s>+~,]/.test(c as string)) start = i + 1
  }
  return css.slice(start).trim()
}

interface CompoundParts {
  tag?: string
  id?: string
  classes: string[]
  attrs: Record<string, string>
}

const IDENT = String.raw`(?:\\[0-9a-fA-F]{1,6}\s?|\\[^0-9a-fA-F]|[\w-]|[^\x00-\x7f])+`
const TAG_RE = /^([a-zA-Z][\w-]*)/
const ID_RE = new RegExp(`^#(${IDENT})`)
const CLASS_RE = new RegExp(`^\\.(${IDENT})`)
const ATTR_RE =
  /^\[\s*([\w:-]+)\s*(?:([~|^$*]?=)\s*(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|([^\]\s]+))\s*[iIsS]?\s*)?\]/
const PSEUDO_RE = /^::?[\w-]+(?:\((?:[^()]|\([^()]*\))*\))?/

function parseCompound(compound: string): CompoundParts {
  const parts: CompoundParts = { classes: [], attrs: {} }
  let rest = compound
  const tag = TAG_RE.exec(rest)
  if (tag) {
    parts.tag = (tag[1] as string).toLowerCase()
    rest = rest.slice(tag[0].length)
  } else if (rest.startsWith('*')) rest = rest.slice(1)
  while (rest.length > 0) {
    const id = ID_RE.exec(rest)
    const cls = id ? null : CLASS_RE.exec(rest)
    const attr = id || cls ? null : ATTR_RE.exec(rest)
    // :nth-child(2), :not(…): position or negation, not an attribute of the element
    const pseudo = id || cls || attr ? null : PSEUDO_RE.exec(rest)
    const m = id ?? cls ?? attr ?? pseudo
    if (!m) break
    if (id) parts.id ??= cssUnescape(id[1] as string)
    else if (cls) parts.classes.push(cssUnescape(cls[1] as string))
    else if (attr && attr[2] === '=')
      parts.attrs[(attr[1] as string).toLowerCase()] ??= cssUnescape(attr[3] ?? attr[4] ?? attr[5] ?? '')
    rest = rest.slice(m[0].length)
  }
  return parts
}

/** Tag and id named by the last step of an XPath (`/html/body/button[2]`, `//*[@id="x"]`). */
function parseXpathTail(xpath: string): { tag?: string; id?: string } {
  const m = /\/([a-zA-Z][\w-]*|\*)((?:\[[^\]]*\])*)\s*$/.exec(xpath)
  if (!m) return {}
  const out: { tag?: string; id?: string } = {}
  if (m[1] !== '*') out.tag = (m[1] as string).toLowerCase()
  const id = /\[@id\s*=\s*(["'])(.*?)\1\]/.exec(m[2] ?? '')
  if (id) out.id = id[2] as string
  return out
}

const FRAME_RE = /^iframe >> nth=(\d+)$/

/** `frame: [0, 2]` ↔ `frame_path: ["iframe >> nth=0", "iframe >> nth=2"]` (a Playwright frame locator per level). */
export const framePathFromIndices = (frame: readonly number[]): string[] => frame.map((i) => `iframe >> nth=${i}`)

export interface ImportedTarget {
  identity: ElementIdentity
  selectors: Selectors
  /** True when no selector could be used (the element cannot be found on replay). */
  empty: boolean
}

/**
 * Builds an element identity and our selectors from DevTools selectors (see the rules at the top of this file).
 * `selectorAttribute` is the recording's custom test-id attribute (e.g. `data-qa`), read like `data-testid`.
 */
export function identityFromDevtoolsSelectors(
  selectors: readonly DevtoolsSelector[],
  opts: { frame?: readonly number[]; selectorAttribute?: string } = {},
): ImportedTarget {
  const identity: Partial<ElementIdentity> = {}
  let css: string | undefined
  let xpath: string | undefined
  let shadowPath: string[] = []
  const cssFallbacks: string[] = []
  const xpathFallbacks: string[] = []
  const compounds: CompoundParts[] = []
  let xpathTail: { tag?: string; id?: string } = {}
  let usable = 0
  for (const raw of selectors) {
    const path = normalizePath(raw)
    const last = path[path.length - 1] as string
    const { kind, body } = kindOf(last)
    if (body.trim() === '') continue
    // `["aria/Download Crosstab", "aria/Download"]` is "Download" inside "Download Crosstab": the last name alone
    // names another element (a toolbar's own "Download"), so a scoped ARIA path says nothing about the element
    if (kind === 'aria' && path.length > 1) continue
    usable++
    switch (kind) {
      case 'aria': {
        const { name, role } = parseAriaSelector(body)
        if (identity.axName == null && name !== '') {
          identity.axName = name
          if (role) identity.axRole = role
        } else if (identity.axRole == null && role && name === '') identity.axRole = role
        break
      }
      case 'text':
        identity.textContent ??= body
        break
      case 'xpath':
        if (xpath === undefined) {
          xpath = body
          xpathTail = parseXpathTail(body)
        } else xpathFallbacks.push(body)
        break
      case 'pierce':
      case 'css': {
        const hosts = path.slice(0, -1)
        const plainHosts = hosts.every((h) => kindOf(h).kind === 'css')
        if (css === undefined && kind === 'css' && plainHosts) {
          css = body
          shadowPath = hosts
        } else cssFallbacks.push(body)
        compounds.push(parseCompound(lastCompound(body)))
        break
      }
    }
  }
  if (css === undefined && cssFallbacks.length > 0) css = cssFallbacks.shift()
  const testIdAttrs = ['data-testid', ...(opts.selectorAttribute ? [opts.selectorAttribute.toLowerCase()] : [])]
  let tag: string | undefined
  const classNames: string[] = []
  for (const c of compounds) {
    tag ??= c.tag
    if (c.id !== undefined) identity.id ??= c.id
    for (const cls of c.classes) if (!classNames.includes(cls)) classNames.push(cls)
    for (const attr of testIdAttrs) if (c.attrs[attr] !== undefined) identity.dataTestId ??= c.attrs[attr]
    if (c.attrs.id !== undefined) identity.id ??= c.attrs.id
    if (c.attrs.name !== undefined) identity.name ??= c.attrs.name
    if (c.attrs['aria-label'] !== undefined) identity.ariaLabel ??= c.attrs['aria-label']
    if (c.attrs.placeholder !== undefined) identity.placeholder ??= c.attrs.placeholder
    if (c.attrs.type !== undefined) identity.type ??= c.attrs.type.toLowerCase()
    if (c.attrs.href !== undefined) identity.href ??= c.attrs.href
  }
  if (xpathTail.id !== undefined) identity.id ??= xpathTail.id
  tag ??= xpathTail.tag ?? (identity.axRole ? ROLE_TAGS[identity.axRole] : undefined)
  if (classNames.length > 0) identity.classNames = classNames
  if (xpath !== undefined) identity.xpath = xpath
  if (opts.frame && opts.frame.length > 0) identity.framePath = framePathFromIndices(opts.frame)
  if (shadowPath.length > 0) identity.shadowPath = shadowPath
  const fallbacks = [
    ...cssFallbacks,
    ...xpathFallbacks.map((x) => (x.startsWith('/') || x.startsWith('(') ? x : `xpath=${x}`)),
  ].filter((f, i, all) => f !== css && all.indexOf(f) === i)
  const sel: Selectors = {}
  if (css !== undefined) sel.css = css
  if (xpath !== undefined) sel.xpath = xpath
  if (fallbacks.length > 0) sel.fallbacks = fallbacks
  return {
    identity: { ...identity, tagName: tag ?? 'unknown', boundingBox: { x: 0, y: 0, width: 0, height: 0 } },
    selectors: sel,
    empty: usable === 0,
  }
}

function aria(name: string, role: string | null | undefined): string {
  return `aria/${name}${role ? `[role="${role}"]` : ''}`
}

const isXpathLike = (s: string) => s.startsWith('xpath=') || s.startsWith('/') || s.startsWith('(')

/**
 * DevTools selectors for an identity and our selectors, most stable first: aria name+role, data-testid, id, the
 * stored CSS, CSS fallbacks, XPath (stored, then fallbacks), text; then `extraSelectors` (e.g. the originals
 * kept at import) that are not already there. CSS selectors are prefixed with the shadow hosts. Always paths.
 */
export function devtoolsSelectorsFor(
  identity: ElementIdentity | null | undefined,
  selectors: Selectors | null | undefined,
  extraSelectors: readonly DevtoolsSelector[] = [],
): string[][] {
  const out: string[][] = []
  const seen = new Set<string>()
  const add = (path: string[]) => {
    const key = selectorKey(path)
    if (path.some((p) => p.trim() === '') || seen.has(key)) return
    seen.add(key)
    out.push(path)
  }
  const hosts = identity?.shadowPath ?? []
  const inShadow = (css: string) => [...hosts, css]
  const name = identity?.axName?.trim()
  if (name && !/[[\]]/.test(name)) add([aria(name, identity?.axRole)])
  if (identity?.dataTestId) add(inShadow(`[data-testid=${quoteAttr(identity.dataTestId)}]`))
  if (identity?.id) add(inShadow(`#${cssEscapeIdent(identity.id)}`))
  /** The element has a name of its own (accessible name, test id, id): a text selector adds only ambiguity. */
  const named = out.length > 0
  if (selectors?.css) add(inShadow(selectors.css))
  const fallbacks = (selectors?.fallbacks ?? []).filter((f) => f.trim() !== '')
  for (const f of fallbacks) if (!isXpathLike(f)) add(inShadow(f.startsWith('css=') ? f.slice(4) : f))
  const xpath = selectors?.xpath ?? identity?.xpath
  if (xpath) add([`xpath/${xpath}`])
  for (const f of fallbacks) if (isXpathLike(f)) add([`xpath/${f.startsWith('xpath=') ? f.slice(6) : f}`])
  // `text/…` matches the smallest element holding the text anywhere (a heading and a label saying 로그인 as
  // well as the button): written only when no accessible name, test id or id names the element
  const text = identity?.textContent?.replace(/\s+/g, ' ').trim()
  if (text && text.length <= 80 && !named) add([`text/${text}`])
  for (const s of extraSelectors) add(normalizePath(s))
  return out
}

// ---------------------------------------------------------------------------------------------------------
// Import

const TIMER_RE =
  /^\s*new\s+Promise\s*\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*\{?\s*setTimeout\s*\(\s*\(\s*\)\s*=>\s*\1\s*\(\s*true\s*\)\s*,\s*(\d+)\s*\)\s*;?\s*\}?\s*\)\s*;?\s*$/

/** `new Promise(resolve => setTimeout(() => resolve(true), 500))` → 500 (how DevTools documents a pause). */
export function timerExpressionMs(expression: string): number | null {
  const m = TIMER_RE.exec(expression)
  return m ? Number(m[2]) : null
}
export const timerExpression = (ms: number) => `new Promise(resolve => setTimeout(() => resolve(true), ${ms}))`

function secretSlug(prefix: string, identity: ElementIdentity): string {
  const base = identity.name || identity.id || identity.axName || 'password'
  const slug = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
  return `${prefix}${slug || 'PASSWORD'}`
}

const isPasswordField = (id: ElementIdentity) =>
  id.type === 'password' ||
  [id.axName, id.id, id.name, id.ariaLabel, id.placeholder].some((v) => v && PASSWORD_WORDS.test(v))

function omit(step: Readonly<Record<string, unknown>>, fields: readonly string[]): JsonObject {
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(step)) if (v !== undefined && !fields.includes(k)) out[k] = v as JsonValue
  return out
}

function label(identity: ElementIdentity, sel: Selectors): string {
  const text = elementLabel(identity)
  const role = identity.axRole || (identity.tagName !== 'unknown' ? identity.tagName : '')
  if (text) return `${role ? `${role} ` : ''}${text}`
  return role && sel.css ? `${role} ${sel.css}` : (sel.css ?? sel.xpath ?? (role || 'element'))
}

const isBox = (b: ElementIdentity['boundingBox'] | null | undefined) => !!b && b.width > 0 && b.height > 0

const hasNavigation = (events: JsonValue | undefined) =>
  Array.isArray(events) && events.some((e) => isObject(e) && e.type === 'navigation')

/**
 * Converts a Chrome DevTools Recorder export into a format-3.0 web test case. Throws `WebError`
 * (`WEB_BAD_DEVTOOLS_RECORDING`) naming the file, JSON path and expectation on bad input. Warnings name the
 * steps that have no equivalent or lost something.
 */
export function importDevtoolsRecording(json: unknown, opts: DevtoolsImportOptions = {}): DevtoolsImportResult {
  const recording = assertDevtoolsRecording(json, opts.file)
  const now = opts.now ?? Date.now()
  const secretPrefix = opts.secretEnvPrefix ?? DEFAULT_SECRET_PREFIX
  const warnings: string[] = []
  const actions: Action[] = []
  const caseExtra: JsonObject = {}
  let startUrl: string | null = null
  let viewport: { width: number; height: number } | null = null
  let scrollPositions = new Map<string, { x: number; y: number }>()
  /** keyDowns whose keyUp is still to come. */
  const held: string[] = []
  const steps = recording.steps
  const warn = (i: number, step: DevtoolsStep, what: string) => warnings.push(`steps[${i}] (${step.type}): ${what}`)
  /** Whether an action happened yet (steps kept to run before the start page do not count). */
  const hasActed = () => actions.some((a) => (a.extra?.devtools as JsonObject | undefined)?.beforeStart !== true)
  /** A step with no equivalent: an action in its place that fails on replay with the reason, exported back as is. */
  const keep = (i: number, step: DevtoolsStep, why: string) => {
    warn(i, step, `${why}; the step fails on replay (kept in the case for export)`)
    actions.push({
      timestamp: now + i,
      actionType: 'wait',
      x: 0,
      y: 0,
      durationMs: 0,
      description: `DevTools ${step.type} step (not replayed: ${why})`,
      extra: { devtools: { step: omit(step, []), unsupported: why } },
    })
  }
  /** A step the replay honours itself (network conditions, a viewport change, closing a page): kept whole. */
  const passThrough = (i: number, step: DevtoolsStep, description: string, fields: JsonObject = {}) => {
    actions.push({
      timestamp: now + i,
      actionType: 'wait',
      x: 0,
      y: 0,
      durationMs: 0,
      description,
      extra: { devtools: { step: omit(step, []), ...fields } },
    })
  }
  /** Modifier keys held down (`keyDown Shift` with no chord): the clicks and hovers until their keyUp get them. */
  const heldModifiers: { key: KeyModifier; used: boolean; step: DevtoolsStep; index: number; at: number }[] = []
  const modifiersNow = (): KeyModifier[] | null => {
    if (heldModifiers.length === 0) return null
    for (const m of heldModifiers) m.used = true
    return heldModifiers.map((m) => m.key)
  }

  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as DevtoolsStep
    const timestamp = now + i
    const push = (action: Omit<Action, 'timestamp'>, kept: JsonObject) => {
      const a: Action = { timestamp, ...action }
      // the page must navigate because of this step (DevTools waits for it): replay checks that it did
      if (hasNavigation(step.assertedEvents)) kept.awaitsNavigation = true
      if (Object.keys(kept).length > 0) a.extra = { ...(a.extra ?? {}), devtools: kept }
      actions.push(a)
      if (hasNavigation(step.assertedEvents)) scrollPositions = new Map()
    }
    const targetOf = () => {
      const t = identityFromDevtoolsSelectors(step.selectors ?? [], {
        frame: (step.frame as number[] | undefined) ?? [],
        ...(recording.selectorAttribute ? { selectorAttribute: recording.selectorAttribute } : {}),
      })
      if (t.empty) warn(i, step, 'has no usable selector; replay cannot find its element')
      return t
    }
    const pushAssertion = (assertion: Assertion, t: ImportedTarget | null, kept: JsonObject) => {
      const action: Omit<Action, 'timestamp'> = {
        actionType: 'assert',
        x: Math.round((step.offsetX as number | undefined) ?? 0),
        y: Math.round((step.offsetY as number | undefined) ?? 0),
        description: describeAssertion(assertion, t ? label(t.identity, t.selectors) : null),
        assertion,
      }
      if (t) {
        action.identity = t.identity
        action.selectors = t.selectors
      }
      push(action, kept)
    }
    const before = actions.length

    switch (step.type) {
      case 'setViewport': {
        if (viewport === null && !hasActed()) {
          viewport = { width: Math.round(step.width as number), height: Math.round(step.height as number) }
          const rest = omit(step, ['type', 'width', 'height'])
          if (Object.keys(rest).length > 0) caseExtra.viewportStep = rest
        } else
          passThrough(
            i,
            step,
            `Resize the viewport to ${Math.round(step.width as number)}×${Math.round(step.height as number)}`,
          )
        break
      }
      case 'navigate': {
        scrollPositions = new Map()
        const url = step.url as string
        if (startUrl === null && !hasActed()) {
          startUrl = url
          const rest = omit(step, ['type', 'url'])
          if (Object.keys(rest).length > 0) caseExtra.startStep = rest
        } else
          push({ actionType: 'navigate', x: 0, y: 0, url, description: `Go to ${url}` }, omit(step, ['type', 'url']))
        break
      }
      case 'click':
      case 'doubleClick': {
        const t = targetOf()
        const button = (step.button as string | undefined) ?? 'primary'
        const consumed = ['type']
        let actionType: Action['actionType'] = step.type === 'doubleClick' ? 'double_click' : 'click'
        let mouse: MouseButton = 'left'
        if (button === 'secondary' && step.type === 'click') {
          actionType = 'right_click'
          mouse = 'right'
          consumed.push('button')
        } else if (button === 'auxiliary' && step.type === 'click') {
          mouse = 'middle'
          consumed.push('button')
        } else if ((button === 'back' || button === 'forward') && step.type === 'click') {
          mouse = button
          consumed.push('button')
        } else if (button === 'primary') consumed.push('button')
        else
          warn(
            i,
            step,
            `a double click with the "${button}" mouse button has no equivalent; replayed with the left button`,
          )
        const modifiers = modifiersNow()
        const verb =
          actionType === 'right_click'
            ? 'Right-click'
            : actionType === 'double_click'
              ? 'Double-click'
              : mouse === 'back' || mouse === 'forward' || mouse === 'middle'
                ? `Click (${mouse} button)`
                : 'Click'
        push(
          {
            actionType,
            x: Math.round((step.offsetX as number | undefined) ?? 0),
            y: Math.round((step.offsetY as number | undefined) ?? 0),
            button: mouse,
            ...(modifiers ? { modifiers } : {}),
            description: `${modifiers ? `${modifiers.join('+')}+` : ''}${verb} ${label(t.identity, t.selectors)}`,
            identity: t.identity,
            selectors: t.selectors,
          },
          omit(step, consumed),
        )
        break
      }
      case 'change': {
        const t = targetOf()
        const value = step.value as string
        const kept = omit(step, ['type', 'value'])
        if (t.identity.tagName === 'select') {
          push(
            {
              actionType: 'select',
              x: 0,
              y: 0,
              value,
              description: `Select "${value}" in ${label(t.identity, t.selectors)}`,
              identity: t.identity,
              selectors: t.selectors,
            },
            kept,
          )
        } else if (isPasswordField(t.identity)) {
          const secretEnv = secretSlug(secretPrefix, t.identity)
          warn(i, step, `looks like a password field: the value was not stored; set ${secretEnv} when replaying`)
          push(
            {
              actionType: 'type',
              x: 0,
              y: 0,
              text: MASK,
              secretEnv,
              description: `Type password into ${label(t.identity, t.selectors)}`,
              identity: t.identity,
              selectors: t.selectors,
            },
            kept,
          )
        } else {
          push(
            {
              actionType: 'type',
              x: 0,
              y: 0,
              text: value,
              description: `Type into ${label(t.identity, t.selectors)}`,
              identity: t.identity,
              selectors: t.selectors,
            },
            kept,
          )
        }
        break
      }
      case 'keyDown': {
        const chord = matchChord(steps, i)
        if (chord) {
          push(
            { actionType: 'key_press', x: 0, y: 0, key: chord.key, description: `Press ${chord.key}` },
            omit(step, ['type', 'key']),
          )
          i += chord.length - 1
          break
        }
        const key = step.key as string
        if (MODIFIERS.has(key) && !heldModifiers.some((m) => m.key === key)) {
          // held for the clicks until its keyUp; pressed alone (at the keyUp) when no click used it
          heldModifiers.push({ key: key as KeyModifier, used: false, step, index: i, at: actions.length })
          break
        }
        if (!releasedLater(steps, i, key)) {
          // a key held down to the end (or pressed again before released): only its keyDown, as the reference sends
          passThrough(i, step, `Hold down ${key}`)
          break
        }
        held.push(key)
        push({ actionType: 'key_press', x: 0, y: 0, key, description: `Press ${key}` }, omit(step, ['type', 'key']))
        break
      }
      case 'keyUp': {
        const mod = heldModifiers.findIndex((m) => m.key === step.key)
        if (mod >= 0) {
          const [m] = heldModifiers.splice(mod, 1)
          if (m && !m.used)
            push(
              { actionType: 'key_press', x: 0, y: 0, key: m.key, description: `Press ${m.key}` },
              omit(m.step, ['type', 'key']),
            )
          break
        }
        const at = held.lastIndexOf(step.key as string)
        if (at >= 0) held.splice(at, 1)
        // a keyUp with no keyDown before it (the key was down when recording started): only its keyUp, as the
        // reference sends
        else passThrough(i, step, `Release ${String(step.key)}`)
        break
      }
      case 'scroll': {
        const scroller = step.selectors && step.selectors.length > 0 ? targetOf() : null
        const key = JSON.stringify([step.frame ?? [], scroller ? (step.selectors ?? []).map(normalizePath) : null])
        const prev = scrollPositions.get(key) ?? { x: 0, y: 0 }
        const pos = {
          x: Math.round((step.x as number | undefined) ?? 0),
          y: Math.round((step.y as number | undefined) ?? 0),
        }
        scrollPositions.set(key, pos)
        const dx = pos.x - prev.x
        const dy = pos.y - prev.y
        const vx = viewport ? Math.round(viewport.width / 2) : 0
        const vy = viewport ? Math.round(viewport.height / 2) : 0
        const action: Omit<Action, 'timestamp'> = {
          actionType: 'scroll',
          x: vx,
          y: vy,
          scrollDx: dx,
          scrollDy: dy,
          description: scroller
            ? `Scroll ${label(scroller.identity, scroller.selectors)} by ${dy} px`
            : `Scroll by ${dy} px`,
        }
        const kept = omit(step, ['type', 'x', 'y'])
        if (scroller) {
          action.identity = scroller.identity
          action.selectors = scroller.selectors
        } else kept.scrolls = 'window'
        push(action, kept)
        break
      }
      case 'waitForExpression': {
        const ms = timerExpressionMs(step.expression as string)
        if (ms !== null) {
          push(
            { actionType: 'wait', x: 0, y: 0, durationMs: ms, description: `Wait ${ms} ms` },
            omit(step, ['type', 'expression']),
          )
          break
        }
        // a condition: an assertion polled until it holds (our own exports come back as what they were)
        const { assertion, selectors } = assertionFromExpression(step.expression as string)
        const t =
          selectors.length > 0
            ? identityFromDevtoolsSelectors(selectors, {
                frame: (step.frame as number[] | undefined) ?? [],
                ...(recording.selectorAttribute ? { selectorAttribute: recording.selectorAttribute } : {}),
              })
            : null
        pushAssertion(assertion, t, omit(step, ['type', 'expression']))
        break
      }
      case 'hover': {
        const t = targetOf()
        const modifiers = modifiersNow()
        push(
          {
            actionType: 'hover',
            x: Math.round((step.offsetX as number | undefined) ?? 0),
            y: Math.round((step.offsetY as number | undefined) ?? 0),
            ...(modifiers ? { modifiers } : {}),
            description: `Hover over ${label(t.identity, t.selectors)}`,
            identity: t.identity,
            selectors: t.selectors,
          },
          omit(step, ['type']),
        )
        break
      }
      case 'waitForElement': {
        const assertion = assertionFromWaitForElement(step)
        if ('unsupported' in assertion) {
          keep(i, step, assertion.unsupported)
          break
        }
        pushAssertion(
          assertion,
          targetOf(),
          omit(step, ['type', 'operator', 'count', 'visible', 'properties', 'attributes']),
        )
        break
      }
      case 'close':
        passThrough(i, step, `Close the page${step.target && step.target !== 'main' ? ` ${String(step.target)}` : ''}`)
        break
      case 'customStep':
        keep(i, step, `the custom step "${String(step.name ?? '')}" has no equivalent`)
        break
      case 'emulateNetworkConditions':
        // before the first navigate: exported back before it (the replay applies it right after the start page)
        passThrough(
          i,
          step,
          `Emulate network conditions (download ${String(step.download ?? '-')} B/s, latency ${String(step.latency ?? 0)} ms)`,
          startUrl === null && !hasActed() ? { beforeStart: true } : {},
        )
        break
      default:
        keep(i, step, 'unknown step type')
    }
    // a navigation the step must cause, with its URL: an assertion of that URL right after the step
    const acted = actions.length > before ? actions[actions.length - 1] : undefined
    const events = Array.isArray(step.assertedEvents) ? step.assertedEvents : []
    if (acted && events.length > 0) {
      const kept = (acted.extra?.devtools ?? {}) as JsonObject
      const left: JsonValue[] = []
      const checks: JsonObject[] = []
      for (const e of events) {
        if (isObject(e) && e.type === 'navigation' && typeof e.url === 'string' && e.url !== '')
          checks.push(e as JsonObject)
        else left.push(e)
      }
      if (left.length > 0) {
        warn(i, step, 'an asserted event without a URL is not checked on replay (kept for export)')
        kept.assertedEvents = left
      } else delete kept.assertedEvents
      if (Object.keys(kept).length > 0) acted.extra = { ...(acted.extra ?? {}), devtools: kept }
      else if (acted.extra) {
        const { devtools: _gone, ...rest } = acted.extra
        if (Object.keys(rest).length > 0) acted.extra = rest
        else delete acted.extra
      }
      for (const event of checks) {
        const assertion: Assertion = { kind: 'url', expected: event.url as string }
        actions.push({
          timestamp,
          actionType: 'assert',
          x: 0,
          y: 0,
          description: describeAssertion(assertion),
          assertion,
          extra: { devtools: { assertedEvent: event } },
        })
      }
    }
  }
  // a modifier never released and used by no click: its keyDown alone, where it was (as the reference sends it)
  for (const m of [...heldModifiers].reverse())
    if (!m.used)
      actions.splice(m.at, 0, {
        timestamp: now + m.index,
        actionType: 'wait',
        x: 0,
        y: 0,
        durationMs: 0,
        description: `Hold down ${m.key}`,
        extra: { devtools: { step: omit(m.step, []) } },
      })
  if (startUrl === null)
    warnings.push(
      'the recording has no navigate step before its first action: the case has no start_url (replay with --url)',
    )

  const recordingRest = omit(recording, ['title', 'steps'])
  if (Object.keys(recordingRest).length > 0) caseExtra.recording = recordingRest
  const testCase: TestCase = {
    name: recording.title || opts.name || 'DevTools recording',
    version: CURRENT_FORMAT_VERSION,
    platform: 'web',
    createdAt: new Date(now).toISOString(),
    description: `Imported from a Chrome DevTools Recorder export${opts.file ? ` (${opts.file})` : ''}.`,
    actions,
  }
  if (startUrl !== null) testCase.startUrl = startUrl
  if (viewport) testCase.viewport = viewport
  if (Object.keys(caseExtra).length > 0) testCase.extra = { devtools: caseExtra }
  return { testCase, warnings }
}

/** Whether the key pressed at step `i` is released by a later keyUp before it is pressed again. */
function releasedLater(steps: readonly DevtoolsStep[], i: number, key: string): boolean {
  for (let j = i + 1; j < steps.length; j++) {
    const s = steps[j] as DevtoolsStep
    if (s.key !== key) continue
    if (s.type === 'keyUp') return true
    if (s.type === 'keyDown') return false
  }
  return false
}

/** `keyDown M…, keyDown K, keyUp K, keyUp …M` (modifiers M) from index `i` → `"M+…+K"` and the steps it spans. */
function matchChord(steps: readonly DevtoolsStep[], i: number): { key: string; length: number } | null {
  const mods: string[] = []
  let j = i
  while (j < steps.length && steps[j]?.type === 'keyDown' && MODIFIERS.has(steps[j]?.key as string)) {
    mods.push(steps[j]?.key as string)
    j++
  }
  if (mods.length === 0 || new Set(mods).size !== mods.length) return null
  const down = steps[j]
  const up = steps[j + 1]
  if (down?.type !== 'keyDown' || MODIFIERS.has(down.key as string)) return null
  if (up?.type !== 'keyUp' || up.key !== down.key) return null
  const ups = steps.slice(j + 2, j + 2 + mods.length)
  if (ups.length !== mods.length || !ups.every((s) => s.type === 'keyUp' && mods.includes(s.key as string))) return null
  if (new Set(ups.map((s) => s.key)).size !== mods.length) return null
  return { key: [...mods, down.key as string].join('+'), length: j + 2 + mods.length - i }
}

// ---------------------------------------------------------------------------------------------------------
// Export

const CHORD_RE = /^((?:(?:Control|Shift|Alt|Meta)\+)+)(.+)$/
const round2 = (v: number) => Math.round(v * 100) / 100

function devtoolsExtra(extra: JsonObject | null | undefined): JsonObject {
  const d = extra?.devtools
  return isObject(d) ? (d as JsonObject) : {}
}

function keptSelectors(kept: JsonObject): DevtoolsSelector[] {
  const s = kept.selectors
  if (!Array.isArray(s)) return []
  return s.filter(
    (x): x is DevtoolsSelector => typeof x === 'string' || (Array.isArray(x) && x.every((p) => typeof p === 'string')),
  )
}

/**
 * Converts a web test case into a Chrome DevTools Recorder recording (see the rules at the top of this file).
 * Never writes a secret or its mask; warnings name the actions that were skipped or changed.
 */
export function exportDevtoolsRecording(testCase: TestCase): DevtoolsExportResult {
  const warnings: string[] = []
  const steps: DevtoolsStep[] = []
  const caseKept = devtoolsExtra(testCase.extra)
  const warn = (k: number, a: Action, what: string) => warnings.push(`actions[${k}] (${a.actionType}): ${what}`)
  if (testCase.platform !== 'web')
    warnings.push(`the case is a ${testCase.platform} case; only web actions with an element identity can be exported`)

  if (testCase.viewport) {
    const vs = isObject(caseKept.viewportStep) ? (caseKept.viewportStep as JsonObject) : {}
    steps.push({
      type: 'setViewport',
      width: testCase.viewport.width,
      height: testCase.viewport.height,
      deviceScaleFactor: 1,
      isMobile: false,
      hasTouch: false,
      isLandscape: false,
      ...vs,
    })
  }
  // steps imported from before the first navigate (network conditions) go back before it
  const beforeStart = new Set<number>()
  for (const [k, a] of testCase.actions.entries()) {
    const kept = devtoolsExtra(a.extra)
    if (kept.beforeStart !== true || !isObject(kept.step)) break
    steps.push(kept.step as DevtoolsStep)
    beforeStart.add(k)
  }
  if (testCase.startUrl) {
    const ss = isObject(caseKept.startStep) ? (caseKept.startStep as JsonObject) : {}
    steps.push({ type: 'navigate', url: testCase.startUrl, ...ss })
  } else warnings.push('the case has no start_url: the recording starts on whatever page is open')

  const unsupported = (Array.isArray(caseKept.unsupportedSteps) ? caseKept.unsupportedSteps : []).filter(
    (u): u is JsonObject => isObject(u) && isObject(u.step) && typeof u.step.type === 'string',
  )
  const restoreBefore = (k: number, last: boolean) => {
    for (const u of unsupported) {
      const before = typeof u.before === 'number' ? u.before : Number.POSITIVE_INFINITY
      if (before === k || (last && before > k)) steps.push(u.step as DevtoolsStep)
    }
  }

  let scrollPositions = new Map<string, { x: number; y: number }>()
  const actions = testCase.actions
  for (let k = 0; k < actions.length; k++) {
    restoreBefore(k, false)
    if (beforeStart.has(k)) continue
    const a = actions[k] as Action
    const kept = devtoolsExtra(a.extra)
    // markers of the import, not step fields
    const {
      selectors: _originals,
      step: _step,
      unsupported: _unsupported,
      beforeStart: _beforeStart,
      awaitsNavigation: _awaits,
      scrolls: _scrolls,
      ...keptFields
    } = kept
    if (isObject(kept.step) && typeof kept.step.type === 'string') {
      // a step kept whole at import (no equivalent, or honoured by the replay itself): written back as it was
      steps.push(kept.step as DevtoolsStep)
      continue
    }
    const base = (type: string): DevtoolsStep => ({
      type,
      ...keptFields,
      target: (kept.target as string | undefined) ?? 'main',
    })
    const selectorsOf = (identity: ElementIdentity | null | undefined, sel: Selectors | null | undefined) => {
      const originals = keptSelectors(kept)
      // an identity the import derived from the recording's selectors (no box was ever measured) knows nothing
      // they do not say: only they are written, never a `#id` or `[data-testid]` guessed from them
      if (originals.length > 0 && (!identity || !isBox(identity.boundingBox))) return originals.map(normalizePath)
      return devtoolsSelectorsFor(identity, sel, originals)
    }
    const withFrame = (step: DevtoolsStep, identity: ElementIdentity | null | undefined) => {
      if (!identity) return step // keep the frame kept at import, if any
      const framePath = identity.framePath ?? []
      if (framePath.length === 0) {
        delete step.frame
        return step
      }
      const parsed = framePath.map((f) => FRAME_RE.exec(f))
      if (parsed.every((m) => m !== null)) step.frame = parsed.map((m) => Number((m as RegExpExecArray)[1]))
      else if (Array.isArray(kept.frame) && kept.frame.length === framePath.length) step.frame = kept.frame
      else {
        step.frame = framePath.map(() => 0)
        warn(
          k,
          a,
          `iframe path ${JSON.stringify(framePath)} has no DevTools frame index; assumed the first iframe at each level`,
        )
      }
      return step
    }
    let step: DevtoolsStep | null = null

    switch (a.actionType) {
      case 'click':
      case 'double_click':
      case 'right_click': {
        const selectors = selectorsOf(a.identity, a.selectors)
        if (selectors.length === 0) {
          warn(
            k,
            a,
            'has no element identity or selector (a coordinate-only step); DevTools cannot click a bare point — skipped',
          )
          break
        }
        const box = a.identity?.boundingBox
        const realBox = box && box.width > 0 && box.height > 0
        const offsetX = realBox ? a.x - box.x : ((kept.offsetX as number | undefined) ?? a.x - (box?.x ?? 0))
        const offsetY = realBox ? a.y - box.y : ((kept.offsetY as number | undefined) ?? a.y - (box?.y ?? 0))
        step = base(a.actionType === 'double_click' ? 'doubleClick' : 'click')
        step.selectors = selectors
        step.offsetX = round2(offsetX)
        step.offsetY = round2(offsetY)
        if (a.actionType === 'right_click') step.button = 'secondary'
        else if (a.button === 'middle') step.button = 'auxiliary'
        else if (a.button === 'right' && a.actionType === 'click') step.button = 'secondary'
        else if ((a.button === 'back' || a.button === 'forward') && a.actionType === 'click') step.button = a.button
        withFrame(step, a.identity)
        if (a.opensPage)
          warn(
            k,
            a,
            'opens a new page (tab or window); DevTools names such a page by its URL as the `target` of the steps after it, which the case does not keep: they are exported for the main page',
          )
        break
      }
      case 'type':
      case 'select': {
        let identity = a.identity
        let sel = a.selectors
        if (!identity && !sel?.css && !sel?.xpath) {
          const prev = actions[k - 1]
          if (prev && ['click', 'double_click'].includes(prev.actionType) && (prev.identity || prev.selectors)) {
            identity = prev.identity
            sel = prev.selectors
            warn(k, a, `has no element identity; assumed it types into the element clicked in actions[${k - 1}]`)
          }
        }
        const selectors = selectorsOf(identity, sel)
        if (selectors.length === 0) {
          warn(k, a, 'has no element identity or selector; a DevTools change step needs one — skipped')
          break
        }
        step = base('change')
        step.selectors = selectors
        const secret = a.actionType === 'type' && (!!a.secretEnv || identity?.type === 'password' || a.text === MASK)
        if (secret) {
          step.value = ''
          warn(
            k,
            a,
            `is a password step: exported with an empty value${a.secretEnv ? ` (the secret is supplied from ${a.secretEnv} at replay)` : ''}; fill it in before replaying in DevTools`,
          )
        } else step.value = (a.actionType === 'select' ? a.value : a.text) ?? ''
        withFrame(step, identity)
        break
      }
      case 'key_press': {
        if (!a.key) {
          warn(k, a, 'has no key — skipped')
          break
        }
        const chord = CHORD_RE.exec(a.key)
        const mods = chord ? (chord[1] as string).split('+').filter(Boolean) : []
        const key = chord ? (chord[2] as string) : a.key
        const target = (kept.target as string | undefined) ?? 'main'
        for (const m of mods) steps.push({ type: 'keyDown', target, key: m })
        steps.push({ ...base('keyDown'), key })
        steps.push({ type: 'keyUp', target, key })
        for (const m of [...mods].reverse()) steps.push({ type: 'keyUp', target, key: m })
        break
      }
      case 'scroll': {
        const scroller = a.identity || a.selectors ? selectorsOf(a.identity, a.selectors) : []
        step = base('scroll')
        if (scroller.length > 0) step.selectors = scroller
        withFrame(step, a.identity)
        const posKey = JSON.stringify([
          step.frame ?? [],
          scroller.length > 0 ? keptSelectorsOrSelf(kept, scroller) : null,
        ])
        const prev = scrollPositions.get(posKey) ?? { x: 0, y: 0 }
        const pos = { x: prev.x + (a.scrollDx ?? 0), y: prev.y + (a.scrollDy ?? 0) }
        scrollPositions.set(posKey, pos)
        step.x = pos.x
        step.y = pos.y
        break
      }
      case 'navigate': {
        if (!a.url) {
          warn(k, a, 'has no url — skipped')
          break
        }
        step = { ...base('navigate'), url: a.url }
        scrollPositions = new Map()
        break
      }
      case 'wait': {
        step = { ...base('waitForExpression'), expression: timerExpression(Math.round(a.durationMs ?? 0)) }
        break
      }
      case 'assert': {
        if (!a.assertion) {
          warn(k, a, 'has no assertion — skipped')
          break
        }
        const event = kept.assertedEvent
        const last = steps.at(-1)
        if (isObject(event) && last && last.type !== 'navigate' && last.type !== 'setViewport') {
          // imported from the step before's asserted navigation: it goes back there
          last.assertedEvents = [...(Array.isArray(last.assertedEvents) ? last.assertedEvents : []), event]
          break
        }
        const { assertedEvent: _event, ...rest } = keptFields
        const out = assertionToDevtools(a.assertion, selectorsOf(a.identity, a.selectors))
        if ('skipped' in out) {
          warn(k, a, `${out.skipped} — skipped`)
          break
        }
        step = { ...rest, target: (kept.target as string | undefined) ?? 'main', ...out.step }
        if (out.step.type === 'waitForElement') withFrame(step, a.identity)
        break
      }
      case 'hover': {
        const selectors = selectorsOf(a.identity, a.selectors)
        if (selectors.length === 0) {
          warn(k, a, 'has no element identity or selector; a DevTools hover step needs one — skipped')
          break
        }
        step = base('hover')
        step.selectors = selectors
        withFrame(step, a.identity)
        break
      }
      case 'drag':
        warn(k, a, 'dragging has no DevTools Recorder step — skipped')
        break
      default:
        warn(k, a, 'has no DevTools Recorder step — skipped')
    }
    if (step) {
      step = ordered(step)
      // keys held during the step: pressed before it, released after it, as DevTools records them
      const held = (a.modifiers ?? []).filter((m) => MODIFIERS.has(m))
      const target = step.target as string
      for (const m of held) steps.push({ type: 'keyDown', target, key: m })
      steps.push(step)
      for (const m of [...held].reverse()) steps.push({ type: 'keyUp', target, key: m })
      if (hasNavigation(step.assertedEvents)) scrollPositions = new Map()
    }
  }
  restoreBefore(actions.length, true)

  const recordingKept = isObject(caseKept.recording) ? (caseKept.recording as JsonObject) : {}
  const recording: DevtoolsRecording = { title: testCase.name, ...recordingKept, steps }
  return { recording, warnings }
}

const STEP_KEY_ORDER = [
  'type',
  'target',
  'frame',
  'selectors',
  'offsetX',
  'offsetY',
  'button',
  'value',
  'key',
  'url',
  'x',
  'y',
  'expression',
  'operator',
  'count',
  'visible',
  'properties',
]

/** Step fields in the order DevTools writes them (type, target, selectors, offsets, …), the rest after. */
function ordered(step: DevtoolsStep): DevtoolsStep {
  const out: Record<string, JsonValue | undefined> = {}
  for (const k of STEP_KEY_ORDER) if (step[k] !== undefined) out[k] = step[k]
  for (const [k, v] of Object.entries(step)) if (!(k in out) && v !== undefined) out[k] = v
  return out as DevtoolsStep
}

/** The scroller key import used (the original selectors), so positions add up the same way both directions. */
function keptSelectorsOrSelf(kept: JsonObject, fallback: string[][]): string[][] {
  const originals = keptSelectors(kept)
  return originals.length > 0 ? originals.map(normalizePath) : fallback
}

// ---------------------------------------------------------------------------------------------------------
// Replay

/** What a replay must do for an action imported from DevTools beyond the action itself (read by the replayer). */
export interface DevtoolsReplayPlan {
  /** The page the step runs in: `main` (the page the case started in) or the URL of a popup. Absent: as recorded. */
  target: string | null
  /** Why the step cannot be replayed: it fails with this reason (never a silent pass). */
  unsupported: string | null
  /** The step must cause a navigation (an asserted navigation event). */
  awaitsNavigation: boolean
  /** A scroll of the window (no scroller selector): the window scrolls, whatever stands under the point. */
  scrollsWindow: boolean
  /** A step honoured by the replay itself. */
  honour:
    | { kind: 'network'; offline: boolean; download: number; upload: number; latency: number }
    | { kind: 'viewport'; width: number; height: number }
    | { kind: 'close' }
    /** A key pressed or released alone (an unpaired keyDown or keyUp of the recording). */
    | { kind: 'key'; key: string; up: boolean }
    | null
}

/** The DevTools part of an action's replay, or null for an action not imported from DevTools. */
export function devtoolsReplayPlan(action: Action): DevtoolsReplayPlan | null {
  const kept = devtoolsExtra(action.extra)
  if (Object.keys(kept).length === 0) return null
  const step = isObject(kept.step) ? (kept.step as JsonObject) : null
  const target = typeof kept.target === 'string' ? kept.target : typeof step?.target === 'string' ? step.target : null
  const num = (v: JsonValue | undefined, fallback: number) => (isFiniteNumber(v) ? v : fallback)
  let honour: DevtoolsReplayPlan['honour'] = null
  let unsupported = typeof kept.unsupported === 'string' ? kept.unsupported : null
  if (step && !unsupported) {
    if (step.type === 'emulateNetworkConditions') {
      const download = num(step.download, -1)
      const upload = num(step.upload, -1)
      honour = { kind: 'network', offline: !download && !upload, download, upload, latency: num(step.latency, 0) }
    } else if (step.type === 'setViewport')
      honour = { kind: 'viewport', width: num(step.width, 0), height: num(step.height, 0) }
    else if (step.type === 'close') honour = { kind: 'close' }
    else if ((step.type === 'keyDown' || step.type === 'keyUp') && typeof step.key === 'string' && step.key !== '')
      honour = { kind: 'key', key: step.key, up: step.type === 'keyUp' }
    else unsupported = `the DevTools ${String(step.type)} step has no equivalent`
  }
  return {
    target,
    unsupported,
    awaitsNavigation: kept.awaitsNavigation === true,
    scrollsWindow: kept.scrolls === 'window',
    honour,
  }
}

/**
 * The recording's own selectors of an action imported from DevTools (kept at import) and its frame indices: what
 * the replay resolves first, as the reference does (`devtools-selectors.ts`). Null for any other action.
 */
export function recordedDevtoolsSelectors(action: Action): { selectors: DevtoolsSelector[]; frame: number[] } | null {
  const kept = devtoolsExtra(action.extra)
  const selectors = keptSelectors(kept)
  if (selectors.length === 0) return null
  const frame = Array.isArray(kept.frame) ? kept.frame.filter((f): f is number => Number.isInteger(f)) : []
  return { selectors, frame }
}

/** Whether an action was imported from a DevTools recording (its step is kept in `extra.devtools`). */
export const isDevtoolsImported = (action: Action): boolean => Object.keys(devtoolsExtra(action.extra)).length > 0
