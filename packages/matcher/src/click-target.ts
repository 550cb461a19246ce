import type { BoundingBox, ElementIdentity } from '@qa/model'
import { areaOf } from './image/geometry'

/**
 * What a click is recorded on, and whether a recorded or located element can be a click target at all
 * (the element a person meant, not the icon or span the pointer hit). Pure: the recorder describes the elements from the hit node up to the document,
 * and the replay asks the same questions of a recorded identity and of every strategy's answer.
 */

/** One element on the way from the node under the pointer up to the document (the first is the hit element). */
export interface HitChainNode {
  tagName: string
  /** The explicit `role` attribute (its first token), if any. */
  role?: string | null
  /** `<a>`/`<area>` with an `href` attribute. */
  hasHref?: boolean
  /** The `type` attribute of an `<input>`. */
  inputType?: string | null
  /** The `tabindex` attribute as a number, null when absent or not a number. */
  tabIndex?: number | null
  /** An `onclick` attribute or property. */
  hasOnclick?: boolean
  contentEditable?: boolean
  /** A click, pointer or mouse listener on the element itself (CDP `DOMDebugger.getEventListeners`). */
  clickListener?: boolean
  /** A `<label>` whose control exists (`label.control`). */
  labelsControl?: boolean
  box: Pick<BoundingBox, 'x' | 'y' | 'width' | 'height'>
}

/** Why an element is a click target: a native control, an interactive ARIA role, or a weaker sign. */
export type ClickTargetKind = 'native' | 'role' | 'label' | 'handler'

export type ClickTargetDecision =
  | { kind: 'element'; index: number; why: ClickTargetKind; reason: string }
  | { kind: 'coordinates'; warning: string }

export interface ClickTargetOptions {
  /** The viewport, to bound elements that are targets only by a weak sign (a listener, tabindex). */
  viewport?: { width: number; height: number } | null
  /**
   * An element that is a target only by a listener, tabindex, onclick or contenteditable must cover at most
   * this share of the viewport (default 0.25): frameworks put click listeners on their root container (React
   * delegates every click to it), and such a container is not what a person clicked.
   */
  maxHandlerViewportShare?: number
}

/** Tags that are never click targets: the document itself. */
export const DOCUMENT_TAGS: ReadonlySet<string> = new Set(['html', 'body', 'head', '#document', 'frameset'])

/** ARIA widget roles a person clicks (WAI-ARIA 1.2 widget roles that take pointer input). */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'textbox',
  'searchbox',
  'combobox',
  'slider',
  'spinbutton',
  'treeitem',
  'gridcell',
])

const NATIVE_TAGS = new Set(['button', 'select', 'textarea', 'summary', 'option'])

/** Why a chain node is a click target by itself, or null. */
export function clickTargetKind(node: HitChainNode): ClickTargetKind | null {
  const tag = node.tagName.toLowerCase()
  if (DOCUMENT_TAGS.has(tag)) return null
  if (NATIVE_TAGS.has(tag)) return 'native'
  if (tag === 'input') return (node.inputType ?? '').toLowerCase() === 'hidden' ? null : 'native'
  if ((tag === 'a' || tag === 'area') && node.hasHref) return 'native'
  const role = (node.role ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? ''
  if (role && INTERACTIVE_ROLES.has(role)) return 'role'
  if (tag === 'label' && node.labelsControl) return 'label'
  if (node.hasOnclick || node.contentEditable || node.clickListener) return 'handler'
  if (node.tabIndex !== null && node.tabIndex !== undefined && node.tabIndex >= 0) return 'handler'
  return null
}

const describeNode = (n: HitChainNode) => `<${n.tagName.toLowerCase()}${n.role ? ` role=${n.role}` : ''}>`

/**
 * The element a click at the chain's first node means: the nearest element up the chain that is a button,
 * a link with href, a form control, a summary, a label of a control, an element with an interactive ARIA
 * role, or (within `maxHandlerViewportShare` of the viewport) one with a click handler, onclick, tabindex or
 * contenteditable. The document (`html`, `body`) ends the search: with nothing interactive under the point
 * the click is a coordinate step, with a warning that says so.
 */
export function chooseClickTarget(chain: readonly HitChainNode[], opts: ClickTargetOptions = {}): ClickTargetDecision {
  const share = opts.maxHandlerViewportShare ?? 0.25
  const viewportArea = opts.viewport ? opts.viewport.width * opts.viewport.height : 0
  let tooLarge: HitChainNode | null = null
  for (const [index, node] of chain.entries()) {
    if (DOCUMENT_TAGS.has(node.tagName.toLowerCase())) break
    const why = clickTargetKind(node)
    if (why === null) continue
    if (why === 'handler' && viewportArea > 0 && areaOf(node.box) > share * viewportArea) {
      tooLarge ??= node
      continue
    }
    return { kind: 'element', index, why, reason: `${describeNode(node)} is ${WHY_TEXT[why]}` }
  }
  const hit = chain[0]
  const what = hit ? describeNode(hit) : 'nothing'
  return {
    kind: 'coordinates',
    warning: `no interactive element under the point (hit ${what}${
      tooLarge ? `; ${describeNode(tooLarge)} has a click handler but covers too much of the page` : ''
    }): recorded as a coordinate step`,
  }
}

const WHY_TEXT: Record<ClickTargetKind, string> = {
  native: 'a native control',
  role: 'an interactive ARIA role',
  label: 'the label of a control',
  handler: 'clickable (handler, tabindex or contenteditable)',
}

/**
 * Why a recorded identity cannot be a click target (the document, or an identity with nothing to find it
 * by), or null when it can. A strategy must never match such an identity: it matches `body` everywhere.
 */
export function recordedTargetObjection(identity: ElementIdentity | null | undefined): string | null {
  if (!identity) return 'no identity was recorded'
  const tag = (identity.tagName ?? '').trim().toLowerCase()
  if (tag === '') return 'the recorded identity has no tag name'
  if (DOCUMENT_TAGS.has(tag)) return `the recorded target is <${tag}>, the page itself, not an element a person clicks`
  const hasSomething =
    !!identity.axName?.trim() ||
    !!identity.ariaLabel?.trim() ||
    !!identity.dataTestId?.trim() ||
    !!identity.name?.trim() ||
    !!identity.id?.trim() ||
    !!identity.textContent?.trim() ||
    !!identity.placeholder?.trim() ||
    !!identity.xpath?.trim() ||
    areaOf(identity.boundingBox ?? { width: 0, height: 0 }) > 0
  return hasSomething ? null : `the recorded <${tag}> has no label, attribute, path or size to find it by`
}

/**
 * Default `maxAreaGrowth`: an answer may cover at most 6× the recorded element's area. Restyles, longer
 * wording and more padding grow a control by 2–4× at most (width and height each by up to ~2.4× is 6×),
 * while the containers a wrong answer usually is — a toolbar around an icon button, a form group around a
 * checkbox, a card, `body` — are 10× to 1000× larger.
 */
export const DEFAULT_MAX_AREA_GROWTH = 6
/** Answers smaller than this (px², a 64×64 square) are never too large: a tiny icon's own button may be 10× it. */
export const MIN_OVERSIZED_AREA = 64 * 64

/** The phrase an oversized answer's rejection starts with (in attempt details). */
export const OVERSIZED_ANSWER = 'far larger than the recorded element'

/**
 * Why an answer is too large to be the recorded element, or null: its area is more than `maxGrowth` times
 * the recorded one and more than a 64×64 square. Unknown or empty boxes are no objection.
 */
export function oversizedObjection(
  recorded: Pick<BoundingBox, 'width' | 'height'> | null | undefined,
  answer: Pick<BoundingBox, 'width' | 'height'> | null | undefined,
  maxGrowth = DEFAULT_MAX_AREA_GROWTH,
): string | null {
  if (!recorded || !answer || !(maxGrowth > 0)) return null
  const r = areaOf(recorded)
  const a = areaOf(answer)
  if (!(r > 0) || !Number.isFinite(a) || a <= MIN_OVERSIZED_AREA) return null
  if (a <= maxGrowth * r) return null
  return `${OVERSIZED_ANSWER}: ${Math.round(answer.width)}×${Math.round(answer.height)} is ${(a / r).toFixed(1)}× the recorded ${Math.round(recorded.width)}×${Math.round(recorded.height)} (at most ${maxGrowth}×)`
}
