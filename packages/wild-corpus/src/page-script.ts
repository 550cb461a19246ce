/** The mutation operators of the corpus, applied by the page script after the page has rendered. */
export const mutationOps = [
  'renamed-ids',
  'renamed-classes',
  'extra-wrappers',
  'layout-shift',
  'reworded-labels',
  'tag-changes',
  'decoy-siblings',
  'reordered-siblings',
  'removal',
  'restyled',
] as const
export type MutationOp = (typeof mutationOps)[number]

export function isMutationOp(s: string): s is MutationOp {
  return (mutationOps as readonly string[]).includes(s)
}

export interface PageScriptConfig {
  readonly ops: readonly MutationOp[]
  /** Truth ids of the elements `removal` replaces by a look-alike. */
  readonly remove: readonly string[]
  readonly seed: number
  /** Name of the run the events belong to (the `/m/<run>/…` prefix or the variant's name). */
  readonly run: string
  readonly readySelector?: string
  /** Absolute path prefix of the server routes (`/__truth`, `/__hold/…`). */
  readonly api: string
}

/**
 * The script injected at the top of every HTML page. It runs in the page, in a closure: truth ids live in a
 * WeakMap (never in the DOM), trusted input events are reported with `navigator.sendBeacon`, and the page's
 * `load` event is held (a pending image answered by the server when released) until the ids are assigned and
 * the mutations applied, so a tool that waits for `load` sees the mutated page.
 *
 * Serialised with `Function.prototype.toString`: it must stay self-contained (no imports, no helpers outside).
 */
export function corpusPageScript(cfg: PageScriptConfig): void {
  const ids = new WeakMap<Element, string>()
  const byId = new Map<string, Element>()
  const injected = new WeakSet<Element>()
  const INTERACTIVE =
    'a[href],button,input:not([type=hidden]),select,textarea,label,summary,[role=button],[role=tab],[role=link],[role=menuitem],[role=checkbox],[role=radio],[role=switch],[role=option],[tabindex]:not([tabindex="-1"])'
  let rnd = cfg.seed >>> 0 || 1
  const random = () => {
    rnd = (rnd + 0x6d2b79f5) >>> 0
    let t = rnd
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const realParent = (el: Element): Element | null => {
    let p = el.parentElement
    while (p && injected.has(p)) p = p.parentElement
    return p
  }
  const realChildren = (el: Element): Element[] => {
    const out: Element[] = []
    for (const c of Array.from(el.children)) {
      if (injected.has(c)) out.push(...realChildren(c))
      else out.push(c)
    }
    return out
  }
  /** Structural path over the page as it was before any mutation (known ids win). */
  const truthOf = (el: Element | null): string => {
    if (!el) return ''
    const known = ids.get(el)
    if (known) return known
    if (el === document.documentElement) return 'html'
    const parent = realParent(el)
    if (!parent) return el.tagName.toLowerCase()
    const tag = el.tagName.toLowerCase()
    const same = realChildren(parent).filter((c) => c.tagName === el.tagName)
    return `${truthOf(parent)}/${tag}[${same.indexOf(el)}]`
  }
  const assignAll = () => {
    for (const el of Array.from(document.querySelectorAll('*'))) {
      const id = truthOf(el)
      ids.set(el, id)
      byId.set(id, el)
    }
  }
  const labelOf = (el: Element): string =>
    (el.getAttribute('aria-label') || el.textContent || el.getAttribute('title') || '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60)

  // ---- ground truth: trusted input events, reported to the server ----
  const report = (e: Event) => {
    const path = e.composedPath().filter((n): n is Element => n instanceof Element)
    const target = path[0]
    if (!target) return
    // A tool may pick an option of a native <select> through the DOM (as Playwright's selectOption does): no
    // trusted event, but the value did change. Reported under a kind of its own, so only a judge that asks for
    // it counts it.
    const untrustedSelect = !e.isTrusted && e.type === 'change' && target instanceof HTMLSelectElement
    if (!e.isTrusted && !untrustedSelect) return
    const chain = path.slice(0, 12).map((n) => truthOf(n))
    const me = e as MouseEvent
    const body = JSON.stringify({
      run: cfg.run,
      kind: untrustedSelect ? 'untrusted-change' : e.type,
      truth: chain[0],
      chain,
      tag: target.tagName.toLowerCase(),
      label: labelOf(target),
      x: typeof me.clientX === 'number' ? Math.round(me.clientX) : undefined,
      y: typeof me.clientY === 'number' ? Math.round(me.clientY) : undefined,
      value:
        e.type === 'input' || e.type === 'change'
          ? String((target as HTMLInputElement).value ?? '').slice(0, 80)
          : undefined,
      url: location.href,
      t: Date.now(),
    })
    if (!navigator.sendBeacon(`${cfg.api}/__truth`, body)) {
      fetch(`${cfg.api}/__truth`, { method: 'POST', body, keepalive: true }).catch(() => undefined)
    }
  }
  for (const type of ['pointerdown', 'click', 'dblclick', 'contextmenu', 'input', 'change']) {
    window.addEventListener(type, report, true)
  }
  // The harness (never the tool under test) asks which truth id an element has with an untrusted custom event.
  window.addEventListener(
    'qa-corpus-truth',
    (e) => {
      const detail = (e as CustomEvent<{ truth?: string }>).detail
      if (detail && e.target instanceof Element) detail.truth = truthOf(e.target)
    },
    true,
  )

  // ---- hold the load event until the page is ready and mutated ----
  const holdId = Math.random().toString(36).slice(2)
  const hold = new Image()
  hold.src = `${cfg.api}/__hold/${holdId}`
  let released = false
  const release = () => {
    if (released) return
    released = true
    fetch(`${cfg.api}/__release/${holdId}`, { method: 'POST', keepalive: true }).catch(() => undefined)
  }

  // ---- mutation operators ----
  const visible = (el: Element) => {
    const r = el.getBoundingClientRect()
    if (r.width < 2 || r.height < 2) return false
    const s = getComputedStyle(el)
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.05
  }
  const interactive = () =>
    Array.from(document.body.querySelectorAll(INTERACTIVE)).filter(
      (el) => !el.closest('head,script,style,template') && visible(el),
    )
  const suffix = `q${Math.floor(random() * 1e6).toString(36)}`
  const eachRule = (fn: (rule: CSSStyleRule) => void) => {
    const walk = (rules: CSSRuleList) => {
      for (const r of Array.from(rules)) {
        if (r instanceof CSSStyleRule) fn(r)
        const nested = (r as CSSGroupingRule).cssRules
        if (nested && nested.length > 0) walk(nested)
      }
    }
    for (const sheet of Array.from(document.styleSheets)) {
      try {
        walk(sheet.cssRules)
      } catch {
        // cross-origin sheet: not readable, nothing to rewrite
      }
    }
  }
  const renameIds = () => {
    const map = new Map<string, string>()
    for (const el of Array.from(document.querySelectorAll('[id]'))) {
      if (!el.id || el.closest('svg')) continue
      const next = `${el.id}-${suffix}`
      map.set(el.id, next)
      el.id = next
    }
    const refAttrs = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-owns', 'list', 'form']
    for (const el of Array.from(document.querySelectorAll('*'))) {
      for (const a of refAttrs) {
        const v = el.getAttribute(a)
        if (v)
          el.setAttribute(
            a,
            v
              .split(/\s+/)
              .map((t) => map.get(t) ?? t)
              .join(' '),
          )
      }
      for (const a of ['href', 'data-bs-target', 'data-target', 'data-bs-parent', 'data-parent']) {
        const v = el.getAttribute(a)
        if (v?.startsWith('#') && map.has(v.slice(1))) el.setAttribute(a, `#${map.get(v.slice(1))}`)
      }
    }
    eachRule((rule) => {
      if (!rule.selectorText.includes('#')) return
      const next = rule.selectorText.replace(/#(-?[_a-zA-Z][\w-]*)/g, (m, id: string) =>
        map.has(id) ? `#${map.get(id)}` : m,
      )
      if (next !== rule.selectorText) rule.selectorText = next
    })
  }
  // Classes that the kits' own scripts look up or toggle at run time keep their names, so the page still works.
  const BEHAVIOUR =
    /^(show|showing|hiding|active|collapse|collapsing|collapsed|fade|in|open|disabled|dropdown.*|dropup|dropend|dropstart|modal.*|tab-pane|tab-content|nav-link|nav-item|nav|navbar.*|list-group.*|offcanvas.*|tooltip.*|popover.*|carousel.*|toast.*|accordion.*|btn-check|form-check-input|menu.*|layout.*|sidebar.*|sidenav.*|sb-.*|opblock.*|swagger.*|was-validated|needs-validation|is-.*|has-.*|fa.*|bx.*|material-icons.*|ps.*|g-sidenav.*)$/
  const renameClasses = () => {
    const map = new Map<string, string>()
    for (const el of Array.from(document.body.querySelectorAll('[class]'))) {
      if (el.closest('svg')) continue
      const next = Array.from(el.classList).map((c) => {
        if (BEHAVIOUR.test(c)) return c
        const renamed = `${c}-${suffix}`
        map.set(c, renamed)
        return renamed
      })
      el.setAttribute('class', next.join(' '))
    }
    eachRule((rule) => {
      if (!rule.selectorText.includes('.')) return
      const next = rule.selectorText.replace(/\.(-?[_a-zA-Z][\w-]*)/g, (m, c: string) =>
        map.has(c) ? `.${map.get(c)}` : m,
      )
      if (next !== rule.selectorText) rule.selectorText = next
    })
  }
  const wrap = () => {
    for (const el of interactive()) {
      const parent = el.parentElement
      if (!parent || parent === document.body) continue
      const w = document.createElement(getComputedStyle(el).display.includes('inline') ? 'span' : 'div')
      w.className = `wrap-${suffix}`
      w.style.display = 'contents'
      injected.add(w)
      parent.insertBefore(w, el)
      w.appendChild(el)
    }
  }
  const shift = () => {
    const banner = document.createElement('div')
    banner.className = `notice-${suffix}`
    banner.textContent = 'Scheduled maintenance on Sunday 02:00–04:00 UTC.'
    banner.style.cssText =
      'display:block;height:72px;line-height:72px;padding:0 24px;background:#fff4d6;color:#6b5200;font:14px sans-serif;'
    injected.add(banner)
    const main = document.querySelector(
      'main, [role=main], .main-content, .content-wrapper, .right_col, #layoutSidenav_content',
    )
    if (main) main.insertBefore(banner, main.firstChild)
    else document.body.insertBefore(banner, document.body.firstChild)
    // Blocks of content move sideways a little too.
    for (const el of Array.from(document.querySelectorAll('form, .card, table')).slice(0, 20)) {
      ;(el as HTMLElement).style.marginLeft = '24px'
    }
  }
  // A new theme: another typeface and size (so text reflows and blocks move), square corners, other colours for
  // buttons and links. Nothing is added or removed: every control is still there, with its words.
  const restyle = () => {
    const style = document.createElement('style')
    style.textContent = `body { font-family: Georgia, 'DejaVu Serif', serif !important; font-size: 15px !important }
      button, .btn, input, select, textarea, .form-control, .form-select, .card, .dropdown-menu, .modal-content
        { border-radius: 0 !important }
      .btn, button { letter-spacing: 0.04em !important; padding-left: 1.1em !important; padding-right: 1.1em !important }
      .btn-primary, .bg-primary { background-color: #2e6b3a !important; border-color: #2e6b3a !important }
      a { color: #8a3b12 }`
    injected.add(style)
    document.head.appendChild(style)
  }
  const SYNONYMS: Record<string, string> = {
    save: 'Store',
    submit: 'Send',
    send: 'Submit',
    login: 'Sign in',
    'log in': 'Sign in',
    'sign in': 'Log in',
    'sign up': 'Register',
    register: 'Sign up',
    logout: 'Sign out',
    search: 'Find',
    cancel: 'Dismiss',
    close: 'Dismiss',
    delete: 'Remove',
    remove: 'Delete',
    edit: 'Modify',
    update: 'Apply',
    settings: 'Preferences',
    profile: 'My account',
    account: 'Profile',
    home: 'Start',
    dashboard: 'Overview',
    next: 'Forward',
    previous: 'Back',
    back: 'Previous',
    add: 'Create',
    new: 'Create',
    create: 'Add',
    view: 'Show',
    more: 'Show more',
    details: 'Info',
    primary: 'Main',
    secondary: 'Other',
    success: 'Done',
    danger: 'Risky',
    warning: 'Caution',
    info: 'Details',
    light: 'Bright',
    dark: 'Shady',
    link: 'Anchor',
    action: 'Task',
    messages: 'Inbox',
    notifications: 'Alerts',
    tables: 'Grids',
    reset: 'Restore',
    upload: 'Attach',
    download: 'Fetch',
    remember: 'Keep',
    'remember me': 'Keep me signed in',
    'forgot password?': 'Lost your password?',
    email: 'E-mail',
    password: 'Passphrase',
    contact: 'Reach us',
    services: 'Offerings',
    portfolio: 'Work',
    about: 'Our story',
    team: 'People',
    default: 'Standard',
    try: 'Test',
    execute: 'Run',
    authorize: 'Log in',
  }
  const reword = (text: string): string => {
    const whole = SYNONYMS[text.trim().toLowerCase()]
    if (whole) return text.replace(text.trim(), whole)
    return text.replace(/[A-Za-z]+/g, (w) => {
      const s = SYNONYMS[w.toLowerCase()]
      if (!s) return w
      return w[0] === w[0]?.toUpperCase() ? s : s.toLowerCase()
    })
  }
  const rewordLabels = () => {
    for (const el of interactive()) {
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = el.getAttribute(a)
        if (v) el.setAttribute(a, reword(v))
      }
      if (el instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(el.type) && el.value) {
        el.value = reword(el.value)
      }
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.nodeValue?.trim()) n.nodeValue = reword(n.nodeValue)
      }
    }
  }
  const retag = (el: Element, tag: string, extra: Record<string, string>, drop: string[]) => {
    const next = document.createElement(tag)
    for (const a of Array.from(el.attributes)) if (!drop.includes(a.name)) next.setAttribute(a.name, a.value)
    for (const [k, v] of Object.entries(extra)) next.setAttribute(k, v)
    while (el.firstChild) next.appendChild(el.firstChild)
    el.replaceWith(next)
    const id = ids.get(el)
    if (id) {
      ids.set(next, id)
      byId.set(id, next)
    }
    return next
  }
  const changeTags = () => {
    for (const el of interactive()) {
      if (el.tagName === 'BUTTON' && (el as HTMLButtonElement).type !== 'submit' && !el.closest('form')) {
        retag(el, 'a', { role: 'button', tabindex: '0' }, ['type'])
      } else if (el.tagName === 'A' && (el.classList.contains('btn') || el.getAttribute('role') === 'button')) {
        const href = el.getAttribute('href') ?? ''
        if (href === '' || href.startsWith('#') || href.startsWith('javascript')) {
          retag(el, 'button', { type: 'button' }, ['href', 'role'])
        }
      }
    }
  }
  const DECOYS = ['Archive', 'Export', 'Share', 'Duplicate', 'Print', 'Pin']
  /** Labels of the page's controls before any look-alike was added (read once, at the first look-alike). */
  let labelsOnPage: Set<string> | undefined
  const lookAlike = (el: Element, truth: string): Element => {
    const unit =
      el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
        ? (el.closest('.form-check, .custom-control, .checkbox, .radio, label') ?? el)
        : el
    const clone = unit.cloneNode(true) as Element
    // another word than the control's own (a look-alike of "Export" labelled "Export" would be the same control)
    const own =
      `${el.textContent ?? ''} ${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''}`.toLowerCase()
    // nor the label of another control of the page: a look-alike saying "Export" where an "Export" button was
    // removed is that button moved, for any observer (and for the truth, it is not)
    labelsOnPage ??= new Set(
      interactive().flatMap((n) =>
        [n.textContent, n.getAttribute('aria-label'), n.getAttribute('title')]
          .map((t) => (t ?? '').trim().toLowerCase())
          .filter(Boolean),
      ),
    )
    const taken = labelsOnPage
    const words = DECOYS.filter((w) => !own.includes(w.toLowerCase()) && !taken.has(w.toLowerCase()))
    const word = words[Math.floor(random() * words.length)] ?? 'Archive'
    for (const n of [clone, ...Array.from(clone.querySelectorAll('*'))]) {
      if (n.id) n.id = `${n.id}-alt-${suffix}`
      // references follow the renamed ids, so the look-alike's label still labels the look-alike's input
      for (const a of ['for', 'data-bs-target', 'aria-controls']) {
        const v = n.getAttribute(a)
        if (v) n.setAttribute(a, `${v}-alt-${suffix}`)
      }
      const name = n.getAttribute('name')
      if (name) n.setAttribute('name', `${name}-alt`)
      for (const a of ['aria-label', 'title', 'placeholder']) if (n.getAttribute(a)) n.setAttribute(a, word)
      if (n instanceof HTMLInputElement && ['submit', 'button', 'reset'].includes(n.type)) n.value = word
      ids.set(n, `decoy:${truth}:${truthOf(n)}`)
    }
    ids.set(clone, `decoy:${truth}`)
    const walker = document.createTreeWalker(clone, NodeFilter.SHOW_TEXT)
    let first = true
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.nodeValue?.trim()) continue
      n.nodeValue = first ? word : ''
      first = false
    }
    // A look-alike is another control: where the original says nothing in words (an icon button, an avatar, an
    // unlabelled field) it shows another glyph and carries the other word as its tooltip, as a person would see.
    if (first) {
      if (!clone.getAttribute('title')) clone.setAttribute('title', word)
      if (
        clone instanceof HTMLInputElement &&
        !clone.placeholder &&
        clone.type !== 'checkbox' &&
        clone.type !== 'radio'
      )
        clone.placeholder = word
    }
    for (const n of [clone, ...Array.from(clone.querySelectorAll('*'))]) {
      for (const c of Array.from(n.classList)) {
        const glyph =
          /^(fa|bx|bxs|bxl|bi|ti|mdi|fe|ni|ion|icon)-(?!fw$|lg$|xs$|sm$|[0-9]x$|spin$|pulse$|rotate|flip)[\w-]+$/.exec(
            c,
          )
        if (glyph) {
          n.classList.replace(c, `${glyph[1]}-star`)
          break
        }
      }
      if (n instanceof SVGPathElement) n.setAttribute('d', 'M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z')
      if (n instanceof SVGSVGElement && n.getAttribute('data-icon')) n.setAttribute('data-icon', 'star')
      if (n instanceof HTMLImageElement) {
        n.style.filter = 'grayscale(1) invert(1)'
        n.alt = word
      }
    }
    return clone
  }
  const decoys = () => {
    for (const el of interactive()) {
      if (el.closest('[data-decoy-done]')) continue
      const truth = ids.get(el) ?? truthOf(el)
      const clone = lookAlike(el, truth)
      const unit = clone.contains(el) ? el : el
      const anchor =
        el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
          ? (el.closest('.form-check, .custom-control, .checkbox, .radio, label') ?? el)
          : unit
      anchor.parentElement?.insertBefore(clone, anchor)
    }
  }
  const reorder = () => {
    const parents = new Set<Element>()
    for (const el of interactive()) {
      let p: Element | null = el.parentElement
      for (let i = 0; p && i < 3; i++, p = p.parentElement) {
        const kids = Array.from(p.children)
        if (kids.length >= 2 && kids.length <= 12 && kids.every((k) => k.tagName === kids[0]?.tagName)) {
          parents.add(p)
          break
        }
      }
    }
    for (const p of parents) {
      const kids = Array.from(p.children)
      for (const k of kids.reverse()) p.appendChild(k)
    }
  }
  const removeTargets = () => {
    for (const truth of cfg.remove) {
      const el = byId.get(truth)
      if (!el?.parentElement) continue
      const unit =
        el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
          ? (el.closest('.form-check, .custom-control, .checkbox, .radio, label') ?? el)
          : el
      // a control's labels outside its unit go with it (Bootstrap's btn-check: <input> then <label for>), or
      // the page keeps a label that names nothing and still reads as the removed control
      const labels = el instanceof HTMLInputElement ? Array.from(el.labels ?? []).filter((l) => !unit.contains(l)) : []
      unit.replaceWith(lookAlike(el, truth))
      for (const label of labels) label.replaceWith(lookAlike(label, truth))
    }
  }
  const apply = () => {
    const ops = new Set(cfg.ops)
    if (ops.has('removal')) removeTargets()
    if (ops.has('renamed-ids')) renameIds()
    if (ops.has('renamed-classes')) renameClasses()
    if (ops.has('reworded-labels')) rewordLabels()
    if (ops.has('tag-changes')) changeTags()
    if (ops.has('decoy-siblings')) decoys()
    if (ops.has('reordered-siblings')) reorder()
    if (ops.has('extra-wrappers')) wrap()
    if (ops.has('layout-shift')) shift()
    if (ops.has('restyled')) restyle()
  }

  // ---- wait for the page to render, then assign truth ids, mutate, release ----
  const started = Date.now()
  const settle = () => {
    let last = Date.now()
    const mo = new MutationObserver(() => {
      last = Date.now()
    })
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    const tick = () => {
      const ready = !cfg.readySelector || document.querySelector(cfg.readySelector)
      const waited = Date.now() - started
      if ((ready && Date.now() - last >= 250) || waited > 8000) {
        mo.disconnect()
        try {
          assignAll()
          apply()
        } finally {
          release()
        }
        return
      }
      setTimeout(tick, 50)
    }
    setTimeout(tick, 50)
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', settle)
  else settle()
}

/** The `<script>` element the server injects into every HTML page. */
export function pageScriptTag(cfg: PageScriptConfig): string {
  // `__name` covers bundlers that wrap named functions (esbuild keepNames) when this source is serialised.
  const src = `(function(){var __name=function(f){return f};(${String(corpusPageScript)})(${JSON.stringify(cfg)})})()`
  return `<script>${src.replace(/<\/script/gi, '<\\/script')}</script>`
}

/**
 * Runs in the page (pass it to Playwright's `locator.evaluate`): the truth id the page script gave `el`, asked
 * with an untrusted custom event that only the corpus harness sends. '' on pages without the script.
 */
export const askTruth = (el: Element): string => {
  const detail: { truth?: string } = {}
  el.dispatchEvent(new CustomEvent('qa-corpus-truth', { detail, bubbles: true, composed: true }))
  return detail.truth ?? ''
}
