import { centreInView } from './geometry'

/**
 * Where a click on a located element must land so that it reaches that element and not another control
 * nested inside it. Playwright clicks an element at its centre and accepts any descendant there; when the
 * element is a container of other controls (redoc 2.5's side-menu group is an `li[role=menuitem]` that holds
 * its open sub-list, whose centre is the sub-item "Create an item"), the centre click is a click on the wrong
 * control. Decided in the page by `elementFromPoint`: the centre when a click there reaches the element itself or
 * a plain part of it (text, an icon, a label); else the point nearest the centre that does; else none — the
 * step fails rather than click an inner control. A point reaching something outside the element (a backdrop, a
 * menu left open) is not this question: the ordinary click handles it (it waits, or fails).
 */
export type OwnClickPoint =
  /** The centre reaches the element (or is covered by something else): click as usual. */
  | { kind: 'centre' }
  /** The centre reaches a nested control; this point (from the element's top-left corner) reaches the element. */
  | { kind: 'point'; position: { x: number; y: number }; centreHit: string }
  /** Every point of the element that is not covered reaches a nested control. */
  | { kind: 'none'; centreHit: string }

/** Page function: see `OwnClickPoint`. The element is scrolled into view first, as a click does. */
export function ownClickPointInPage(target: Element, nestedControl: string): OwnClickPoint {
  if (!centreInView(target.getBoundingClientRect())) target.scrollIntoView({ block: 'center', inline: 'nearest' })
  const r = target.getBoundingClientRect()
  if (!(r.width > 0 && r.height > 0)) return { kind: 'centre' }
  const root = target.getRootNode() as Document | ShadowRoot
  const describe = (el: Element) =>
    `<${el.localName}${el.id ? `#${el.id}` : ''}${el.getAttribute('role') ? ` role=${el.getAttribute('role')}` : ''}>${(
      el.textContent ?? ''
    )
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 40)}`
  // the control a label names is that label's own (a click on it is the label's click)
  const own = (el: Element) => (target as HTMLLabelElement).control === el
  // 'self': the point reaches the element or a plain part of it; 'nested': another control inside it, or a part
  // holding such controls (the sub-list around the sub-items); 'outside': something not in the element
  const judge = (x: number, y: number): { verdict: 'self' | 'nested' | 'outside'; hit: Element | null } => {
    const hit = root.elementFromPoint(x, y)
    if (!hit) return { verdict: 'outside', hit }
    if (hit === target) return { verdict: 'self', hit }
    if (!target.contains(hit)) return { verdict: 'outside', hit }
    for (let el: Element | null = hit; el && el !== target; el = el.parentElement) {
      if (own(el)) continue
      if (el.matches(nestedControl)) return { verdict: 'nested', hit: el }
      const inner = Array.from(el.querySelectorAll(nestedControl)).filter((c) => !own(c))
      if (inner.length > 0) return { verdict: 'nested', hit: inner[0] ?? el }
    }
    return { verdict: 'self', hit }
  }
  const cx = r.left + r.width / 2
  const cy = r.top + r.height / 2
  const centre = judge(cx, cy)
  if (centre.verdict !== 'nested') return { kind: 'centre' }
  const centreHit = centre.hit ? describe(centre.hit) : 'nothing'
  // points of the visible part of the box, nearest the centre first, 1 px inside its edges, at most ~4 px apart
  const left = Math.max(r.left, 0)
  const top = Math.max(r.top, 0)
  const right = Math.min(r.right, innerWidth)
  const bottom = Math.min(r.bottom, innerHeight)
  const steps = (from: number, to: number) => {
    const n = Math.max(2, Math.min(64, Math.ceil((to - from) / 4)))
    return Array.from({ length: n + 1 }, (_, i) => from + 1 + ((to - from - 2) * i) / n)
  }
  const points: { x: number; y: number; d: number }[] = []
  for (const x of steps(left, right))
    for (const y of steps(top, bottom)) points.push({ x, y, d: (x - cx) ** 2 + (y - cy) ** 2 })
  points.sort((a, b) => a.d - b.d)
  for (const p of points) {
    if (judge(p.x, p.y).verdict !== 'self') continue
    return { kind: 'point', position: { x: p.x - r.left, y: p.y - r.top }, centreHit }
  }
  return { kind: 'none', centreHit }
}

/** What covers a control's centre when it is the control's own label or a part of its own small wrapper. */
export interface CoveringPart {
  el: Element
  relation: 'label' | 'wrapper'
  what: string
}

/**
 * Page function: the element at the control's centre when it is the control's own label or a part of its own
 * wrapper (the control is scrolled into view first, as Playwright's click does); null otherwise.
 */
export function coveringPartInPage(control: Element): CoveringPart | null {
  // Playwright's click scrolls the element into view too; the hit test needs it there
  if (!centreInView(control.getBoundingClientRect())) control.scrollIntoView({ block: 'center', inline: 'nearest' })
  const r = control.getBoundingClientRect()
  if (!centreInView(r)) return null
  const root = control.getRootNode() as Document | ShadowRoot
  const hit = root.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
  if (!hit || hit === control || control.contains(hit)) return null
  const describe = (el: Element) =>
    `<${el.localName}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${Array.from(el.classList).slice(0, 2).join('.')}` : ''}>`
  const labels = Array.from((control as HTMLInputElement).labels ?? [])
  const label = labels.find((l) => l === hit || l.contains(hit))
  if (label) return { el: hit, relation: 'label', what: describe(label) }
  // the control's own small wrapper (iCheck's <div class="icheckbox"><input><ins></div>, a switch's track)
  const wrapper = control.parentElement
  if (wrapper && wrapper !== document.body && wrapper.contains(hit)) {
    const w = wrapper.getBoundingClientRect()
    const toggles = wrapper.querySelectorAll('input, select, textarea, button, a[href]')
    if (toggles.length === 1 && w.width * w.height <= Math.max(64 * 64, 8 * r.width * r.height))
      return { el: hit, relation: 'wrapper', what: describe(wrapper) }
  }
  return null
}

/** Both looks a click needs before it lands, in one page call: whether a part of the control covers it, and where. */
export interface ClickAim {
  /** The control's own label or a part of its wrapper covers its centre (`coveringPartInPage`). */
  covered: { relation: CoveringPart['relation']; what: string } | null
  /** Where a click reaches the control itself (`ownClickPointInPage`); not looked at when `covered`. */
  point: OwnClickPoint
}

/**
 * Page function: `coveringPartInPage` and, when nothing covers the centre, `ownClickPointInPage`, in one call (the
 * control scrolled into view first, as Playwright's click does): one round trip where the two took two, with their
 * handles.
 */
export function clickAimInPage(control: Element, nestedControl: string): ClickAim {
  const cover = coveringPartInPage(control)
  if (cover) return { covered: { relation: cover.relation, what: cover.what }, point: { kind: 'centre' } }
  return { covered: null, point: ownClickPointInPage(control, nestedControl) }
}

/**
 * Page function: `clickAimInPage` of the one element a lookup's locator (`locator.nth(i)`) reaches, for
 * `locator.evaluateAll`: one query and one call, where `locator.evaluate` also waits for the element, makes a
 * handle, adopts it into the page's world and previews it (about ten protocol messages). null when the locator
 * reaches no element or several (the caller then asks the usual way).
 */
export function clickAimOfOneInPage(elements: Element[], nestedControl: string): ClickAim | null {
  const [only] = elements
  return elements.length === 1 && only ? clickAimInPage(only, nestedControl) : null
}
