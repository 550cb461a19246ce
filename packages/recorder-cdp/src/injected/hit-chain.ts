/**
 * The chain of elements under a point and what the matcher needs to know of each (`chooseClickTarget`,
 * `chooseAssertTarget`), and the control a clicked element operates. Page code: bundled into the page functions
 * (see `page-bundle.generated.ts`), imports page code only.
 */

/** What both target choices read of an element of the chain. */
interface ChainNodeBasics {
  tagName: string
  role: string | null
  hasHref: boolean
  inputType: string | null
  tabIndex: number | null
  labelsControl: boolean
  box: { x: number; y: number; width: number; height: number }
}

/** What both target choices read of an element of the chain: its tag, role, link, input type, tab index and box. */
const chainNodeBasics = (el: Element): ChainNodeBasics => {
  const r = el.getBoundingClientRect()
  const tabindex = el.getAttribute('tabindex')
  const tabIndex = tabindex === null || tabindex.trim() === '' ? null : Number(tabindex)
  return {
    tagName: el.localName,
    role: el.getAttribute('role')?.trim().split(/\s+/)[0] ?? null,
    hasHref: el.hasAttribute('href'),
    inputType: el.localName === 'input' ? (el.getAttribute('type') ?? 'text').toLowerCase() : null,
    tabIndex: tabIndex !== null && Number.isFinite(tabIndex) ? tabIndex : null,
    labelsControl: el.localName === 'label' && !!(el as HTMLLabelElement).control,
    box: { x: r.left, y: r.top, width: r.width, height: r.height },
  }
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
    const { labelsControl, box, ...basics } = chainNodeBasics(el)
    return {
      ...basics,
      hasOnclick: el.hasAttribute('onclick') || typeof (el as HTMLElement).onclick === 'function',
      contentEditable: (el as HTMLElement).isContentEditable === true && el.getAttribute('contenteditable') !== null,
      labelsControl,
      box,
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
    let ownText = false
    for (const child of Array.from(el.childNodes))
      if (child.nodeType === 3 && (child.textContent ?? '').trim() !== '') {
        ownText = true
        break
      }
    const { labelsControl, box, ...basics } = chainNodeBasics(el)
    return { ...basics, labelsControl, ownText, box }
  })
}
