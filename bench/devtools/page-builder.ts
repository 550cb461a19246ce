/**
 * Pages for the DevTools bench: for every URL a recording visits, a page carrying what the recording's selectors
 * name, built in the browser from a spec (shadow roots need script). Each element a step acts on gets a truth id
 * kept in a WeakMap inside the page's closure; the page posts `<event> <truth id>` for every event to `/__truth`
 * (synchronously, so a navigation loses none). Neither runner can see the truth ids.
 */

/** One CSS compound and the combinator before it. */
export interface Compound {
  comb: ' ' | '>' | '+' | '~'
  tag?: string
  id?: string
  classes: string[]
  attrs: Record<string, string>
  nthChild?: number
  nthOfType?: number
}

export interface TargetSpec {
  truth: string
  /** Per shadow level, the compounds of its CSS path (the last level holds the element). */
  levels: Compound[][]
  tag: string
  ariaName?: string
  role?: string
  text?: string
  id?: string
  attrs: Record<string, string>
  href?: string
  options?: string[]
  /** A popup this element opens (a later step runs in the page at that URL). */
  opens?: string
  /** The largest click offset recorded on it: the element is at least that large (the reference clicks there). */
  minWidth?: number
  minHeight?: number
}

export interface PageSpec {
  title: string
  targets: TargetSpec[]
}

export interface RecordingPlan {
  steps: Record<string, unknown>[]
  pages: Map<string, PageSpec>
  /** The recording with its URLs on this origin (paths kept, one folder per recorded origin). */
  flowAt(origin: string): unknown
  /** The assertion variants: the page without an asserted element; a navigating link made inert. */
  variants(): { name: string; pages: Map<string, PageSpec>; flowAt(origin: string): unknown }[]
  /** The origin the last qa run used (its exported recording names it). */
  lastOrigin: string | null
  /** The path to open first when the recording starts with no navigate (both runners start there). */
  startPath: string | null
}

const PLACEHOLDER = '{{origin}}'

/** A CSS selector → its compounds (ids, classes, attributes, nth pseudo-classes; other pseudo-classes dropped). */
export function parseCssPath(css: string): Compound[] | null {
  const out: Compound[] = []
  let i = 0
  let comb: Compound['comb'] = ' '
  const s = css.trim()
  if (s.includes(',')) return null
  while (i < s.length) {
    while (s[i] === ' ') i++
    if (s[i] === '>' || s[i] === '+' || s[i] === '~') {
      comb = s[i] as Compound['comb']
      i++
      continue
    }
    const c: Compound = { comb, classes: [], attrs: {} }
    comb = ' '
    const tag = /^([a-zA-Z][\w-]*|\*)/.exec(s.slice(i))
    if (tag) {
      if (tag[1] !== '*') c.tag = (tag[1] as string).toLowerCase()
      i += tag[0].length
    }
    for (;;) {
      const m = eatSimple(s.slice(i), c)
      if (m === 0) break
      i += m
    }
    if (
      c.tag === undefined &&
      c.id === undefined &&
      !c.classes.length &&
      !Object.keys(c.attrs).length &&
      !c.nthChild &&
      !c.nthOfType
    ) {
      if (i < s.length) return null
      break
    }
    out.push(c)
  }
  return out.length > 0 ? out : null
}

const cssUnescape = (s: string) => s.replace(/\\(.)/g, '$1')

/** One simple selector at the start of `rest` (id, class, attribute, nth, other pseudo) into `c`; its length, or 0. */
function eatSimple(rest: string, c: Compound): number {
  const id = /^#((?:\\.|[\w-])+)/.exec(rest)
  if (id) {
    c.id = cssUnescape(id[1] as string)
    return id[0].length
  }
  const cls = /^\.((?:\\.|[\w-])+)/.exec(rest)
  if (cls) {
    c.classes.push(cssUnescape(cls[1] as string))
    return cls[0].length
  }
  const attr = /^\[\s*([\w:-]+)\s*(?:=\s*(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|([^\]\s]+)))?\s*\]/.exec(rest)
  if (attr) {
    c.attrs[attr[1] as string] = cssUnescape(attr[2] ?? attr[3] ?? attr[4] ?? '')
    return attr[0].length
  }
  const nthChild = /^:nth-child\((\d+)\)/.exec(rest)
  if (nthChild) {
    c.nthChild = Number(nthChild[1])
    return nthChild[0].length
  }
  const nthOfType = /^:nth-of-type\((\d+)\)/.exec(rest)
  if (nthOfType) {
    c.nthOfType = Number(nthOfType[1])
    return nthOfType[0].length
  }
  // another pseudo-class says nothing to build
  const pseudo = /^::?[\w-]+(?:\((?:[^()]|\([^()]*\))*\))?/.exec(rest)
  return pseudo ? pseudo[0].length : 0
}

const kindOf = (sel: string) => /^(aria|xpath|pierce|text)\//.exec(sel)?.[1] ?? 'css'

const ROLE_TAG: Record<string, string> = {
  button: 'button',
  link: 'a',
  textbox: 'input',
  checkbox: 'input',
  combobox: 'select',
  heading: 'h2',
}

/** What a step's selectors say of its element. */
function targetOf(selectors: unknown[], truth: string, step: Record<string, unknown>): TargetSpec {
  const groups = selectors.map((g) => (typeof g === 'string' ? [g] : (g as string[])))
  const t: TargetSpec = { truth, levels: [], tag: '', attrs: {} }
  // the element's path: the first group whose entries are all plain CSS that parses
  for (const g of groups) {
    if (!g.every((p) => kindOf(p) === 'css')) continue
    const levels = g.map(parseCssPath)
    if (levels.every((l) => l !== null)) {
      t.levels = levels as Compound[][]
      break
    }
  }
  if (t.levels.length === 0)
    for (const g of groups) {
      if (g.length !== 1 || kindOf(g[0] as string) !== 'pierce') continue
      const l = parseCssPath((g[0] as string).slice(7))
      if (l) {
        t.levels = [l]
        break
      }
    }
  for (const g of groups) {
    if (g.length !== 1) continue
    const sel = g[0] as string
    const kind = kindOf(sel)
    const body = sel.slice(kind.length + 1)
    if (kind === 'aria' && t.ariaName === undefined) {
      let role: string | undefined
      const name = body
        .replace(/\[\s*(\w+)\s*=\s*(["'])(.*?)\2\s*\]/g, (_m, a: string, _q, v: string) => {
          if (a === 'role') role = v
          return ''
        })
        .trim()
      if (name) t.ariaName = name
      if (role) t.role = role
    } else if (kind === 'text' && t.text === undefined) t.text = body
    else if (kind === 'xpath') {
      const id = /^\/\/\*\[@id="([^"]+)"\]$/.exec(body)
      if (id) t.id ??= id[1]
      const attr = /^\/\/\*\[@([\w-]+)="([^"]+)"\]$/.exec(body)
      if (attr && attr[1] !== 'id') t.attrs[attr[1] as string] = attr[2] as string
    }
  }
  const last = t.levels.at(-1)?.at(-1)
  t.tag =
    last?.tag ??
    (t.role ? ROLE_TAG[t.role] : undefined) ??
    (step.type === 'change' ? 'input' : step.type === 'waitForElement' ? 'div' : 'button')
  if (step.type === 'change' && !['input', 'textarea', 'select'].includes(t.tag)) t.tag = 'input'
  if (t.tag === 'select' && typeof step.value === 'string') t.options = [step.value]
  if (step.type === 'waitForElement' && step.attributes && typeof step.attributes === 'object')
    for (const [k, v] of Object.entries(step.attributes as Record<string, unknown>)) t.attrs[k] = String(v)
  return t
}

/** The recording's steps, its pages by path, and the recording on any origin. */
export function pagesOf(raw: unknown): RecordingPlan {
  const rec = structuredClone(raw) as { title?: string; steps: Record<string, unknown>[] }
  const origins: string[] = []
  const local = (url: string): string => {
    try {
      const u = new URL(url)
      let k = origins.indexOf(u.origin)
      if (k < 0) k = origins.push(u.origin) - 1
      return `${PLACEHOLDER}/h${k}${u.pathname}${u.search}${u.hash}`
    } catch {
      return url
    }
  }
  const pathOf = (url: string) => new URL(url.replace(PLACEHOLDER, 'http://x')).pathname
  for (const s of rec.steps) {
    if (typeof s.url === 'string') s.url = local(s.url)
    if (typeof s.target === 'string' && s.target !== 'main') s.target = local(s.target)
    if (Array.isArray(s.assertedEvents))
      for (const e of s.assertedEvents as Record<string, unknown>[]) if (typeof e.url === 'string') e.url = local(e.url)
  }
  // a recording whose first action comes before any navigate runs on the page the user had open: a start page
  const firstNav = rec.steps.findIndex((s) => s.type === 'navigate')
  const firstAct = rec.steps.findIndex(
    (s) => !['setViewport', 'emulateNetworkConditions', 'navigate'].includes(String(s.type)),
  )
  const startPath = firstAct >= 0 && (firstNav < 0 || firstNav > firstAct) ? '/start' : null
  const build = (drop: { waitFor?: number; inertLink?: number }) => {
    const pages = new Map<string, PageSpec>()
    const byKey = new Map<string, TargetSpec>()
    let current: string | null = startPath
    let lastClick: TargetSpec | null = null
    const pageAt = (path: string, title = '') => {
      let p = pages.get(path)
      if (!p) {
        p = { title, targets: [] }
        pages.set(path, p)
      }
      return p
    }
    if (startPath) pageAt(startPath, 'Start')
    for (const [i, s] of rec.steps.entries()) {
      const events = Array.isArray(s.assertedEvents) ? (s.assertedEvents as Record<string, unknown>[]) : []
      const nav = events.find((e) => e.type === 'navigation' && typeof e.url === 'string' && e.url !== '')
      if (s.type === 'navigate' && typeof s.url === 'string') {
        current = pathOf(s.url)
        pageAt(current, String(nav?.title ?? ''))
        continue
      }
      const where = typeof s.target === 'string' && s.target !== 'main' ? pathOf(s.target) : current
      // a step in a page no step opened yet: the click before it opened that page (a popup)
      if (where && where !== current && !pages.has(where) && lastClick) lastClick.opens = String(s.target)
      if (where && Array.isArray(s.selectors) && s.selectors.length > 0) {
        const negated = s.type === 'waitForElement' && (s.visible === false || s.count === 0)
        if (!negated && drop.waitFor !== i) {
          const key = `${where} ${JSON.stringify(s.selectors)}`
          let t = byKey.get(key)
          if (!t) {
            t = targetOf(s.selectors as unknown[], `t${byKey.size}`, s)
            byKey.set(key, t)
            pageAt(where).targets.push(t)
          } else if (t.tag === 'select' && typeof s.value === 'string') t.options = [...(t.options ?? []), s.value]
          // an element clicked, then typed into: a field (unless its selector names another tag)
          if (s.type === 'change' && !['input', 'textarea', 'select'].includes(t.tag) && !t.levels.at(-1)?.at(-1)?.tag)
            t.tag = 'input'
          if (typeof s.offsetX === 'number') t.minWidth = Math.max(t.minWidth ?? 0, Math.ceil(s.offsetX) + 8)
          if (typeof s.offsetY === 'number') t.minHeight = Math.max(t.minHeight ?? 0, Math.ceil(s.offsetY) + 8)
          if (s.type === 'click') lastClick = t
          if (nav && (s.type === 'click' || s.type === 'doubleClick') && drop.inertLink !== i) {
            t.href = String(nav.url)
            if (!['a', 'area'].includes(t.tag) && !t.levels.at(-1)?.at(-1)?.tag) t.tag = 'a'
          } else if (nav && drop.inertLink === i) t.href = 'javascript:void(0)'
        }
      }
      if (nav) {
        current = pathOf(String(nav.url))
        pageAt(current, String(nav.title ?? ''))
      }
    }
    return pages
  }
  const flowAt = (origin: string) => JSON.parse(JSON.stringify(rec).replaceAll(PLACEHOLDER, origin))
  const plan: RecordingPlan = {
    steps: rec.steps,
    pages: build({}),
    flowAt,
    lastOrigin: null,
    startPath,
    variants() {
      const out: ReturnType<RecordingPlan['variants']> = []
      const wait = rec.steps.findIndex(
        (s) => s.type === 'waitForElement' && s.visible !== false && s.count !== 0 && s.operator !== '<=',
      )
      if (wait >= 0) out.push({ name: `no-asserted-element@${wait}`, pages: build({ waitFor: wait }), flowAt })
      const navClick = rec.steps.findIndex(
        (s) =>
          (s.type === 'click' || s.type === 'doubleClick') &&
          Array.isArray(s.assertedEvents) &&
          (s.assertedEvents as Record<string, unknown>[]).some((e) => e.type === 'navigation'),
      )
      if (navClick >= 0) out.push({ name: `no-navigation@${navClick}`, pages: build({ inertLink: navClick }), flowAt })
      return out
    },
  }
  return plan
}

/** The page script: the truth log and `buildPage(spec)`. Plain JS (it runs in the page as written). */
export function buildPagesScript(): string {
  return String.raw`
(function () {
  const truth = new WeakMap()
  const post = (line) => { try { const x = new XMLHttpRequest(); x.open('POST', '/__truth', false); x.send(line) } catch (e) {} }
  const idOf = (e) => {
    const path = e.composedPath()
    for (const n of path) if (truth.has(n)) return truth.get(n)
    const t = path[0]
    return '<' + ((t && t.localName) || String(t && t.nodeName)) + '>'
  }
  for (const type of ['mousedown', 'click', 'dblclick', 'contextmenu', 'auxclick', 'mouseover', 'input', 'change', 'keydown', 'keyup'])
    window.addEventListener(type, (e) => post(type + ' ' + idOf(e)), true)
  const SVG = new Set(['svg', 'path', 'g', 'circle', 'rect', 'use', 'polygon'])
  const make = (c) => {
    const tag = c.tag || 'div'
    const el = SVG.has(tag) ? document.createElementNS('http://www.w3.org/2000/svg', tag) : document.createElement(tag)
    if (c.id) el.id = c.id
    for (const k of c.classes || []) el.classList.add(k)
    for (const [k, v] of Object.entries(c.attrs || {})) el.setAttribute(k, v)
    if (tag === 'svg') { el.setAttribute('width', '24'); el.setAttribute('height', '24') }
    else if (!SVG.has(tag)) el.style.minHeight = '4px'
    return el
  }
  const matches = (el, c) => {
    if (c.tag && el.localName !== c.tag) return false
    if (c.id && el.id !== c.id) return false
    for (const k of c.classes || []) if (!el.classList.contains(k)) return false
    for (const [k, v] of Object.entries(c.attrs || {})) if (el.getAttribute(k) !== v) return false
    return true
  }
  const position = (container, c) => {
    const kids = Array.from(container.children)
    if (c.nthChild) { const el = kids[c.nthChild - 1]; return el && matches(el, c) ? el : null }
    if (c.nthOfType) { const el = kids.filter((k) => k.localName === (c.tag || 'div'))[c.nthOfType - 1]; return el && matches(el, c) ? el : null }
    return kids.find((k) => matches(k, c)) || null
  }
  const insert = (container, c) => {
    const el = make(c)
    if (c.nthChild) {
      while (container.children.length < c.nthChild - 1) container.append(make({ tag: 'div' }))
      const ref = container.children[c.nthChild - 1]
      if (ref) container.insertBefore(el, ref); else container.append(el)
    } else if (c.nthOfType) {
      const tag = c.tag || 'div'
      while (Array.from(container.children).filter((k) => k.localName === tag).length < c.nthOfType - 1) container.append(make({ tag }))
      container.append(el)
    } else container.append(el)
    return el
  }
  const ensure = (root, chain) => {
    let current = null
    for (const [i, c] of chain.entries()) {
      if (i === 0 && root === document && c.tag === 'html') { current = document.documentElement; continue }
      if (root === document && c.tag === 'body' && (current === null || current === document.documentElement)) { current = document.body; continue }
      if (c.comb === '+' || c.comb === '~') {
        const el = make(c)
        ;(current || document.body).after(el)
        current = el
        continue
      }
      const container = current || (root === document ? document.body : root)
      if (c.id) {
        const byId = (root === document ? document : root).getElementById ? (root === document ? document : root).getElementById(c.id) : null
        if (byId && matches(byId, c)) { current = byId; continue }
      }
      current = position(container, c) || insert(container, c)
    }
    return current
  }
  window.buildPage = function (spec) {
    for (const t of spec.targets) {
      let root = document
      let el = null
      for (const [k, chain] of t.levels.entries()) {
        const last = k === t.levels.length - 1
        el = ensure(root, last ? chain.map((c, i) => (i === chain.length - 1 && !c.tag ? { ...c, tag: t.tag } : c)) : chain)
        if (k < t.levels.length - 1) { root = el.shadowRoot || el.attachShadow({ mode: 'open' }) }
      }
      if (!el) {
        const existing = t.id ? document.getElementById(t.id) : null
        el = existing || document.body.appendChild(make({ tag: t.tag, id: t.id, classes: [], attrs: {} }))
      }
      if (t.id && !el.id) el.id = t.id
      for (const [k, v] of Object.entries(t.attrs || {})) el.setAttribute(k, v)
      if (t.role && !el.getAttribute('role')) el.setAttribute('role', t.role)
      const field = ['input', 'textarea', 'select'].includes(el.localName)
      if (el.localName === 'select') {
        if (!el.options.length) el.append(new Option('', ''))
        for (const v of t.options || []) if (!Array.from(el.options).some((o) => o.value === v)) el.append(new Option(v, v))
      }
      if (t.ariaName && field) el.setAttribute('aria-label', t.ariaName)
      else if (!field) {
        const label = t.text || t.ariaName
        if (label && !el.textContent.includes(label)) el.append(document.createTextNode(label))
        if (t.ariaName && t.text && t.text !== t.ariaName) el.setAttribute('aria-label', t.ariaName)
        if (t.ariaName && !t.role && ['div', 'span', 'li', 'p'].includes(el.localName)) el.setAttribute('role', 'button')
        if (!el.textContent && !SVG.has(el.localName)) el.append(document.createTextNode('·'))
      }
      if (t.opens) el.addEventListener('click', () => window.open(t.opens, '_blank', 'width=500,height=400'))
      if (t.href && el.localName === 'a') el.setAttribute('href', t.href)
      else if (t.href) el.addEventListener('click', () => { if (!t.href.startsWith('javascript:')) location.href = t.href })
      if (!SVG.has(el.localName)) { el.style.display = el.style.display || 'inline-block'; el.style.minWidth = Math.max(40, t.minWidth || 0) + 'px'; el.style.minHeight = Math.max(20, t.minHeight || 0) + 'px'; el.style.margin = '2px' }
      truth.set(el, t.truth)
    }
  }
})()
`
}
