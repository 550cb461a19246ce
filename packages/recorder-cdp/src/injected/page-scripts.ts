/**
 * Functions that run inside the page. Each is self-contained (no imports, no outer variables) because
 * Playwright and CDP send them to the page as source text.
 */

/** What the page can tell about an element (the CDP accessibility tree adds role and name). */
export interface PageElementDescription {
  tagName: string
  id: string | null
  classNames: string[]
  /** Icon classes of the element and its descendants (`fa-facebook`, `bx-trash`), at most 4. */
  iconClasses: string[]
  name: string | null
  type: string | null
  placeholder: string | null
  ariaLabel: string | null
  dataTestId: string | null
  role: string | null
  /** Explicit role, else the implicit one of the tag (an approximation of the accessibility tree's). */
  implicitRole: string | null
  /** An approximation of the accessible name: aria-label, aria-labelledby, labels, alt/title, text, placeholder. */
  accessibleName: string | null
  textContent: string | null
  href: string | null
  xpath: string
  css: string
  neighborText: string[]
  framePath: string[]
  shadowPath: string[]
  /** Box in top-level viewport CSS pixels. */
  box: { x: number; y: number; width: number; height: number }
  visible: boolean
  enabled: boolean
  isPassword: boolean
  value: string | null
  /** A radio's (or a named checkbox's) place among the inputs of its type sharing its name in its form. */
  groupPosition: { index: number; size: number; value?: string } | null
  /**
   * With `centre`: the element's centre is in the viewport and a click there reaches the element itself (or a
   * descendant), nothing covers it: `clickAsAPerson` needs no look of its own (it would cost ten round trips).
   */
  centreOwn?: boolean
}

/**
 * Describes elements: attributes, text, unique-ish CSS and XPath within their root, text of neighbours,
 * the frame and shadow-root path from the top document, and the box in top-level viewport coordinates.
 */
export function describeElementsInPage(
  elements: Element[],
  options?: { labelsOnly?: boolean; centre?: string } | null,
): PageElementDescription[] {
  // labelsOnly: no CSS path and no neighbours (the costly parts), for counting labels on a page
  const full = !options?.labelsOnly
  /**
   * Whether a click at the element's centre reaches it or a plain part of it (text, an icon, its own label's
   * control), not another control nested in it (`options.centre`: the selector of such controls, as
   * `ownClickPoint` judges them) and nothing over it: the test `clickAsAPerson` would make with more round trips.
   */
  const centreOwn = (el: Element, r: DOMRect, nested: string): boolean => {
    const cx = r.left + r.width / 2
    const cy = r.top + r.height / 2
    if (!(r.width > 0 && r.height > 0 && cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight)) return false
    const hit = (el.getRootNode() as Document | ShadowRoot).elementFromPoint(cx, cy)
    if (hit === null || !(hit === el || el.contains(hit))) return false
    const own = (c: Element) => (el as HTMLLabelElement).control === c
    for (let part: Element | null = hit; part && part !== el; part = part.parentElement) {
      if (own(part)) continue
      if (part.matches(nested)) return false
      if (Array.from(part.querySelectorAll(nested)).some((c) => !own(c))) return false
    }
    return true
  }
  const clean = (s: string | null | undefined, max = 200): string | null => {
    if (s == null) return null
    const t = s.replace(/\s+/g, ' ').trim()
    return t === '' ? null : t.length > max ? t.slice(0, max) : t
  }
  const cssEscape = (s: string): string =>
    typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(s) : s.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`)
  const looksGenerated = (s: string): boolean => /\d{3,}|[a-f0-9]{6,}|^css-|^sc-|^jsx-|__/.test(s)

  const rootOf = (el: Element): Document | ShadowRoot => el.getRootNode() as Document | ShadowRoot

  const cssPath = (el: Element): string => {
    const root = rootOf(el)
    const unique = (sel: string): boolean => {
      try {
        return root.querySelectorAll(sel).length === 1
      } catch {
        return false
      }
    }
    const tag = el.localName
    if (el.id && !looksGenerated(el.id) && unique(`#${cssEscape(el.id)}`)) return `#${cssEscape(el.id)}`
    const testId = el.getAttribute('data-testid')
    if (testId && unique(`[data-testid="${testId}"]`)) return `[data-testid="${testId}"]`
    const name = el.getAttribute('name')
    if (name && unique(`${tag}[name="${name}"]`)) return `${tag}[name="${name}"]`
    const parts: string[] = []
    let node: Element | null = el
    while (node && node.nodeType === 1) {
      let part = node.localName
      const stable = Array.from(node.classList)
        .filter((c) => !looksGenerated(c))
        .slice(0, 2)
      if (stable.length) part += stable.map((c) => `.${cssEscape(c)}`).join('')
      const parent: Element | null = node.parentElement
      if (parent) {
        const same = Array.from(parent.children).filter((c) => c.localName === node!.localName)
        if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`
      }
      parts.unshift(part)
      const sel = parts.join(' > ')
      if (unique(sel)) return sel
      node = parent
    }
    return parts.join(' > ')
  }

  const xpathOf = (el: Element): string => {
    const parts: string[] = []
    let node: Element | null = el
    while (node && node.nodeType === 1) {
      const parent: Element | null = node.parentElement
      const name = node.localName
      if (!parent) {
        parts.unshift(`/${name}`)
        break
      }
      const same = Array.from(parent.children).filter((c) => c.localName === name)
      parts.unshift(same.length > 1 ? `/${name}[${same.indexOf(node) + 1}]` : `/${name}`)
      node = parent
    }
    return parts.join('')
  }

  const textOf = (el: Element): string | null => {
    const h = el as HTMLElement
    // innerText on purpose: the text a person sees (no hidden nodes, CSS text-transform applied).
    // biome-ignore lint/performance/useDomNodeTextContent: visible text is the point
    return clean(typeof h.innerText === 'string' ? h.innerText : el.textContent)
  }

  const UNSEEN_TAGS = new Set(['script', 'style', 'template', 'noscript', 'link', 'meta', 'title'])
  /** Rendered for a person to see (a `display: contents` wrapper has no box of its own but shows its children). */
  const isSeen = (el: Element): boolean => {
    if (UNSEEN_TAGS.has(el.localName)) return false
    const style = el.ownerDocument.defaultView?.getComputedStyle(el)
    if (!style || style.display === 'none' || style.visibility === 'hidden') return false
    return style.display === 'contents' || el.getClientRects().length > 0
  }
  /**
   * A neighbour's visible text with its elements' texts kept apart by a space: innerText glues inline elements
   * ("Export" and "Star" side by side read "ExportStar"), and a neighbour is compared word by word. Three levels
   * deep and the first 200 characters, like `clean`.
   */
  const spacedTextOf = (el: Element): string | null => {
    const parts: string[] = []
    let length = 0
    const walk = (node: Element, depth: number) => {
      if (depth === 3 || node.children.length === 0) {
        const t = textOf(node)
        if (t) {
          parts.push(t)
          length += t.length
        }
        return
      }
      for (const n of Array.from(node.childNodes)) {
        if (length >= 200) return
        if (n.nodeType === 3) {
          const t = n.textContent?.trim()
          if (t) {
            parts.push(t)
            length += t.length
          }
        } else if (n.nodeType === 1 && isSeen(n as Element)) walk(n as Element, depth + 1)
      }
    }
    walk(el, 0)
    return clean(parts.join(' '))
  }
  const neighbours = (el: Element): string[] => {
    const out: string[] = []
    const seen = new Set<string>()
    const push = (t: string | null) => {
      if (t && !seen.has(t) && out.length < 4) {
        seen.add(t)
        out.push(t.slice(0, 60))
      }
    }
    const own = textOf(el)
    // Labels that point at the element.
    const labels = (el as HTMLInputElement).labels
    if (labels) for (const l of Array.from(labels)) push(textOf(l))
    let node: Element | null = el
    // Three levels of boxes up; a `display: contents` wrapper draws no box and does not count as a level.
    for (let depth = 0; depth < 3 && node && out.length < 4; ) {
      const parent: Element | null = node.parentElement
      if (!parent) break
      for (const sib of Array.from(parent.children)) {
        // only what a person sees: no scripts or styles, nothing hidden (innerText of those is their source)
        if (sib === node || !isSeen(sib)) continue
        const t = spacedTextOf(sib)
        if (t && t !== own) push(t)
      }
      node = parent
      if (parent.ownerDocument.defaultView?.getComputedStyle(parent).display !== 'contents') depth++
    }
    return out
  }

  const paths = (el: Element): { framePath: string[]; shadowPath: string[]; dx: number; dy: number } => {
    const shadowPath: string[] = []
    let root = el.getRootNode()
    while (root instanceof ShadowRoot) {
      shadowPath.unshift(cssPath(root.host))
      root = root.host.getRootNode()
    }
    const framePath: string[] = []
    let dx = 0
    let dy = 0
    let win: Window | null = el.ownerDocument.defaultView
    while (win && win !== win.parent) {
      let frameEl: Element | null = null
      try {
        frameEl = win.frameElement
      } catch {
        frameEl = null
      }
      if (!frameEl) break
      framePath.unshift(cssPath(frameEl))
      const r = frameEl.getBoundingClientRect()
      dx += r.left + (frameEl as HTMLElement).clientLeft
      dy += r.top + (frameEl as HTMLElement).clientTop
      win = win.parent
    }
    return { framePath, shadowPath, dx, dy }
  }

  const implicitRole = (el: Element): string | null => {
    const explicit = el.getAttribute('role')
    if (explicit) return explicit.split(/\s+/)[0] ?? null
    const tag = el.localName
    const type = (el.getAttribute('type') ?? 'text').toLowerCase()
    if (tag === 'button' || tag === 'summary') return 'button'
    if (tag === 'a') return el.hasAttribute('href') ? 'link' : null
    if (tag === 'select') return (el as HTMLSelectElement).multiple ? 'listbox' : 'combobox'
    if (tag === 'textarea') return 'textbox'
    if (tag === 'option') return 'option'
    if (tag === 'img') return 'img'
    if (/^h[1-6]$/.test(tag)) return 'heading'
    if (tag === 'input') {
      if (type === 'checkbox') return 'checkbox'
      if (type === 'radio') return 'radio'
      if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return 'button'
      if (type === 'search') return 'searchbox'
      if (type === 'range') return 'slider'
      if (type === 'number') return 'spinbutton'
      return 'textbox'
    }
    return null
  }
  // roles that take their accessible name from their content (WAI-ARIA 1.2 "name from: contents"); the same
  // list as @qa/matcher's NAME_FROM_CONTENT_ROLES (a page script cannot import it)
  const NAME_FROM_CONTENT = new Set([
    'button',
    'cell',
    'checkbox',
    'columnheader',
    'gridcell',
    'heading',
    'link',
    'menuitem',
    'menuitemcheckbox',
    'menuitemradio',
    'option',
    'radio',
    'row',
    'rowheader',
    'switch',
    'tab',
    'tooltip',
    'treeitem',
  ])
  const accessibleName = (el: Element): string | null => {
    const aria = clean(el.getAttribute('aria-label'))
    if (aria) return aria
    const by = el.getAttribute('aria-labelledby')
    if (by) {
      const root = rootOf(el)
      const text = by
        .split(/\s+/)
        .map((id) => (root as Document).getElementById?.(id))
        .map((n) => (n ? textOf(n) : null))
        .filter(Boolean)
        .join(' ')
      if (text) return clean(text)
    }
    const labels = (el as HTMLInputElement).labels
    if (labels?.length) {
      const text = Array.from(labels)
        .map((l) => {
          // The label's own text, without the control's value.
          const copy = l.cloneNode(true) as Element
          for (const c of Array.from(copy.querySelectorAll('input,select,textarea'))) c.remove()
          return clean(copy.textContent)
        })
        .filter(Boolean)
        .join(' ')
      if (text) return text
    }
    const tag = el.localName
    if (tag === 'input') {
      const type = (el.getAttribute('type') ?? '').toLowerCase()
      if (type === 'submit' || type === 'button' || type === 'reset') return clean((el as HTMLInputElement).value)
      return clean(el.getAttribute('title')) ?? clean(el.getAttribute('placeholder'))
    }
    if (tag === 'img') return clean(el.getAttribute('alt'))
    if (tag === 'select' || tag === 'textarea') return clean(el.getAttribute('title'))
    // ARIA names only some roles from their content; a toolbar or a region is not named by its text
    const role = implicitRole(el)
    if (role && !NAME_FROM_CONTENT.has(role)) return clean(el.getAttribute('title'))
    // Text hidden by CSS still names the control for Chromium and Playwright (a collapsed sidebar rail hides
    // "Dashboards" with display: none and shows only the icon): the recorder read that name, so must the list.
    return textOf(el) ?? clean(el.textContent) ?? iconGlyphs(el) ?? clean(el.getAttribute('title'))
  }
  /**
   * The icon-font glyphs (private-use characters) an element without text shows through `::before`/`::after`
   * content, as Chromium names it (`<a><i class="far fa-envelope"></i></a>` is "\uf0e0"): the icon tells an
   * envelope from a bell. Other generated content (arrows, bullets) is decoration and left out.
   */
  // an icon font's icon class, not its size, width or animation modifiers (the same list as the corpus uses)
  const ICON_CLASS =
    /^(fa|bx|bxs|bxl|bi|ti|mdi|fe|ni|ion|icon|glyphicon|ri|la|feather)-(?!fw$|lg$|xs$|sm$|[0-9]x$|spin$|pulse$|rotate|flip|border$|inverse$|stack)[\w-]+$/
  // a ligature icon font (Material Icons, Material Symbols) draws a word as a glyph: `<i class="material-icons">
  // content_paste</i>` shows a clipboard, and its word is no label of the element; kept as `material-icons:content_paste`
  const LIGATURE_CLASS = /^material-(icons|symbols)(-[a-z]+)?$/
  const iconClassesOf = (el: Element): string[] => {
    const out: string[] = []
    for (const n of [el, ...Array.from(el.querySelectorAll('i, span, svg, em')).slice(0, 12)]) {
      for (const c of Array.from(n.classList)) {
        if (ICON_CLASS.test(c) && !out.includes(c)) out.push(c)
        const word = LIGATURE_CLASS.test(c) ? (n.textContent ?? '').trim() : ''
        if (/^[a-z][a-z0-9_]*$/.test(word) && !out.includes(`${c}:${word}`)) out.push(`${c}:${word}`)
      }
    }
    return out.slice(0, 4)
  }
  const iconGlyphs = (el: Element): string | null => {
    const view = el.ownerDocument.defaultView
    if (!view) return null
    let out = ''
    const nodes = [el, ...Array.from(el.querySelectorAll('*')).slice(0, 24)]
    for (const n of nodes) {
      for (const pseudo of ['::before', '::after']) {
        const content = view.getComputedStyle(n, pseudo).content
        if (!content || content === 'none' || content === 'normal') continue
        for (const m of content.matchAll(/\p{Co}/gu)) out += m[0]
      }
    }
    return out === '' ? null : out
  }

  /** A radio's or checkbox's place among the inputs of its type that share its name in its form (or root). */
  const groupPositionOf = (el: Element): { index: number; size: number; value?: string } | null => {
    const input = el as HTMLInputElement
    const type = (el.getAttribute('type') ?? '').toLowerCase()
    const name = el.getAttribute('name')
    if (el.localName !== 'input' || (type !== 'radio' && type !== 'checkbox') || !name) return null
    const inputs = Array.from(rootOf(el).querySelectorAll(`input[name="${cssEscape(name)}"]`)) as HTMLInputElement[]
    const group = inputs.filter((m) => (m.getAttribute('type') ?? '').toLowerCase() === type && m.form === input.form)
    const index = group.indexOf(input)
    const value = el.getAttribute('value')
    if (index < 0) return null
    return value === null ? { index, size: group.length } : { index, size: group.length, value }
  }

  return elements.map((el) => {
    const r = el.getBoundingClientRect()
    const { framePath, shadowPath, dx, dy } = paths(el)
    const style = el.ownerDocument.defaultView?.getComputedStyle(el)
    const visible = r.width > 0 && r.height > 0 && style?.visibility !== 'hidden' && style?.display !== 'none'
    const input = el as HTMLInputElement
    const type = el.getAttribute('type')
    return {
      tagName: el.localName,
      id: el.id || null,
      classNames: Array.from(el.classList),
      iconClasses: iconClassesOf(el),
      name: el.getAttribute('name'),
      type,
      placeholder: el.getAttribute('placeholder'),
      ariaLabel: el.getAttribute('aria-label'),
      dataTestId: el.getAttribute('data-testid') ?? el.getAttribute('data-test-id'),
      role: el.getAttribute('role'),
      implicitRole: implicitRole(el),
      accessibleName: accessibleName(el),
      textContent: textOf(el),
      href: el.getAttribute('href'),
      xpath: xpathOf(el),
      css: full ? cssPath(el) : '',
      neighborText: full ? neighbours(el) : [],
      framePath,
      shadowPath,
      box: { x: r.left + dx, y: r.top + dy, width: r.width, height: r.height },
      visible,
      enabled: !(input.disabled === true || el.getAttribute('aria-disabled') === 'true'),
      isPassword:
        el.localName === 'input' &&
        ((type ?? '').toLowerCase() === 'password' ||
          /\b(current|new)-password\b/.test((el.getAttribute('autocomplete') ?? '').toLowerCase())),
      value: 'value' in input && typeof input.value === 'string' && type !== 'password' ? input.value : null,
      groupPosition: groupPositionOf(el),
      ...(options?.centre && elements.length <= 8 ? { centreOwn: centreOwn(el, r, options.centre) } : {}),
    }
  })
}

/**
 * The elements from the node under the pointer up to the document element, along the flat tree (a slotted
 * element's parent is its slot, a shadow root's is its host): the chain `chooseClickTarget` (@qa/matcher)
 * picks the click target from. A `::before`/`::after` pseudo-element (what `DOM.getNodeForLocation` returns for
 * Font Awesome, Bootstrap Icons, boxicons, switch knobs) stands for the element it belongs to, a text node for
 * its parent. When the hit is a shadow host and (x, y), top-level viewport pixels, fall on one of its slotted
 * children, the chain starts at that child, so that it passes through the slot's shadow ancestors (a
 * `<button><slot>` inside a web component).
 */
export function hitChainInPage(node: Node, x?: number | null, y?: number | null): Element[] {
  // CDP resolves a pseudo-element node to a CSSPseudoElement, whose `element` is its originating element
  const pseudo = node as unknown as { element?: Element; nodeType?: number }
  let el: Element | null = null
  if (pseudo && typeof pseudo.nodeType !== 'number' && pseudo.element) el = pseudo.element
  else if (node.nodeType === 1) el = node as Element
  else if ((node as Text).assignedSlot) el = (node as Text).assignedSlot
  else el = node.parentElement ?? ((node.parentNode as ShadowRoot | null)?.host || null)
  if (el?.shadowRoot && typeof x === 'number' && typeof y === 'number' && !window.frameElement) {
    const inside = (rects: Iterable<DOMRect>) =>
      [...rects].some((r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom)
    for (const child of Array.from(el.childNodes)) {
      const slot = (child as Element | Text).assignedSlot
      if (!slot) continue
      let rects: Iterable<DOMRect> = []
      if (child.nodeType === 1) rects = (child as Element).getClientRects()
      else if (child.nodeType === 3) {
        const range = document.createRange()
        range.selectNodeContents(child)
        rects = range.getClientRects()
      }
      if (inside(rects)) {
        el = child.nodeType === 1 ? (child as Element) : slot
        break
      }
    }
  }
  const chain: Element[] = []
  while (el && chain.length < 40) {
    chain.push(el)
    if (el.assignedSlot) el = el.assignedSlot
    else if (el.parentElement) el = el.parentElement
    else {
      const root = el.getRootNode()
      el = root instanceof ShadowRoot ? root.host : null
    }
  }
  return chain
}

/** What `chooseClickTarget` needs to know about each element of a hit chain (the same shape as `HitChainNode`). */
export function describeHitChainInPage(this: Element[]): {
  tagName: string
  role: string | null
  hasHref: boolean
  inputType: string | null
  tabIndex: number | null
  hasOnclick: boolean
  contentEditable: boolean
  labelsControl: boolean
  box: { x: number; y: number; width: number; height: number }
}[] {
  return this.map((el) => {
    const r = el.getBoundingClientRect()
    const tabindex = el.getAttribute('tabindex')
    const tabIndex = tabindex === null || tabindex.trim() === '' ? null : Number(tabindex)
    return {
      tagName: el.localName,
      role: el.getAttribute('role')?.trim().split(/\s+/)[0] ?? null,
      hasHref: el.hasAttribute('href'),
      inputType: el.localName === 'input' ? (el.getAttribute('type') ?? 'text').toLowerCase() : null,
      tabIndex: tabIndex !== null && Number.isFinite(tabIndex) ? tabIndex : null,
      hasOnclick: el.hasAttribute('onclick') || typeof (el as HTMLElement).onclick === 'function',
      contentEditable: (el as HTMLElement).isContentEditable === true && el.getAttribute('contenteditable') !== null,
      labelsControl: el.localName === 'label' && !!(el as HTMLLabelElement).control,
      box: { x: r.left, y: r.top, width: r.width, height: r.height },
    }
  })
}

/**
 * The control a clicked element operates, or null: a label's control; for the styled part of a custom
 * checkbox, radio or switch (iCheck's `<ins>`, a switch's track, a Material knob) the one checkbox or radio
 * input inside the element or inside its parent. Native controls, links and buttons operate themselves.
 */
export function operatedControlInPage(el: Element): Element | null {
  const tag = el.localName
  if (tag === 'label') {
    const control = (el as HTMLLabelElement).control
    return control && control !== el ? control : null
  }
  if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button' || tag === 'a') return null
  const TOGGLES = 'input[type="checkbox" i], input[type="radio" i]'
  const OTHER =
    'button, a[href], select, textarea, input:not([type="checkbox" i]):not([type="radio" i]):not([type="hidden" i])'
  const only = (root: Element): Element | null => {
    const toggles = root.querySelectorAll(TOGGLES)
    if (toggles.length !== 1 || root.querySelector(OTHER)) return null
    return toggles[0] ?? null
  }
  const own = only(el)
  if (own) return own
  const parent = el.parentElement
  if (!parent || parent.localName === 'body' || parent.localName === 'html' || parent.localName === 'form') return null
  // the parent must be the control's own wrapper, not a form group with other fields
  const r = parent.getBoundingClientRect()
  const mine = el.getBoundingClientRect()
  if (r.width * r.height > 8 * Math.max(1, mine.width * mine.height) && r.width * r.height > 64 * 64) return null
  return only(parent)
}

/**
 * Resolves when the DOM has been quiet for `quietMs` (or after `timeoutMs`), then two animation frames.
 * A node that keeps changing for `liveAfterMs` or longer (a live clock, a counter fed by polling, a
 * script-driven marquee) is "live": its changes stop counting, in this wait and in every later one on the
 * same document, so a busy page settles in about `liveAfterMs` once and then as fast as a quiet one.
 * Animations that end (a dropdown sliding open, 200-600 ms) are still waited for. Runs in an isolated world of its
 * own (`waitForDomQuiet`): the live nodes are kept on that world's globals, out of the page's reach.
 */
export function waitForDomQuietInPage(args: {
  quietMs: number
  timeoutMs: number
  liveAfterMs?: number
}): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const started = Date.now()
    const liveAfterMs = args.liveAfterMs ?? 1_000
    const store = globalThis as unknown as Record<symbol, WeakSet<Node> | undefined>
    const key = Symbol.for('qa.liveNodes')
    store[key] ??= new WeakSet<Node>()
    const live = store[key]
    /** When each node first changed in this wait, and how often. */
    const seen = new Map<Node, { first: number; count: number }>()
    const done = (quiet: boolean) => {
      observer.disconnect()
      if (timer) clearTimeout(timer)
      clearTimeout(deadline)
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(quiet)))
    }
    const arm = () => {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => done(true), args.quietMs)
    }
    const observer = new MutationObserver((records) => {
      const now = Date.now()
      let counts = false
      for (const record of records) {
        const node = record.target
        if (live.has(node)) continue
        const s = seen.get(node)
        if (!s) seen.set(node, { first: now, count: 1 })
        else {
          s.count++
          if (s.count >= 4 && now - s.first >= liveAfterMs) {
            live.add(node)
            continue
          }
        }
        counts = true
      }
      if (counts && now - started < args.timeoutMs) arm()
    })
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    const deadline = setTimeout(() => done(false), args.timeoutMs)
    arm()
  })
}

/**
 * What `chooseAssertTarget` (@qa/matcher) needs to know about each element of a hit chain: the same as for a click,
 * and whether the element shows words of its own (a non-blank text node among its children).
 */
export function describeAssertChainInPage(this: Element[]): {
  tagName: string
  role: string | null
  hasHref: boolean
  inputType: string | null
  tabIndex: number | null
  labelsControl: boolean
  ownText: boolean
  box: { x: number; y: number; width: number; height: number }
}[] {
  return this.map((el) => {
    const r = el.getBoundingClientRect()
    const tabindex = el.getAttribute('tabindex')
    const tabIndex = tabindex === null || tabindex.trim() === '' ? null : Number(tabindex)
    let ownText = false
    for (const child of Array.from(el.childNodes))
      if (child.nodeType === 3 && (child.textContent ?? '').trim() !== '') {
        ownText = true
        break
      }
    return {
      tagName: el.localName,
      role: el.getAttribute('role')?.trim().split(/\s+/)[0] ?? null,
      hasHref: el.hasAttribute('href'),
      inputType: el.localName === 'input' ? (el.getAttribute('type') ?? 'text').toLowerCase() : null,
      tabIndex: tabIndex !== null && Number.isFinite(tabIndex) ? tabIndex : null,
      labelsControl: el.localName === 'label' && !!(el as HTMLLabelElement).control,
      ownText,
      box: { x: r.left, y: r.top, width: r.width, height: r.height },
    }
  })
}

/**
 * Page function: resolves once the finite CSS transitions and animations running now have finished (a focus ring
 * fading in, a menu sliding open), at most `timeoutMs`; infinite ones (a spinner, a pulsing badge) are not waited
 * for. True when they finished in time.
 */
export function waitForFiniteAnimationsInPage(args: { timeoutMs: number }): Promise<boolean> {
  const running = document
    .getAnimations()
    .filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
  if (running.length === 0) return Promise.resolve(true)
  const finished = Promise.all(running.map((a) => a.finished.catch(() => undefined))).then(
    () => new Promise<boolean>((resolve) => requestAnimationFrame(() => resolve(true))),
  )
  const late = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), args.timeoutMs))
  return Promise.race([finished, late])
}
