import { areaOf } from './image/geometry'
import { clickTargetKind, DOCUMENT_TAGS, type HitChainNode } from './click-target'

/**
 * What an assert pick is about: the smallest meaningful element under the pointer — a heading,
 * a text, an image, a button inside a dialog — never the dialog, the document or a large container around it.
 * Pure: the recorder describes the chain from the hit element up to the document (as for a click), and the same
 * answer names the element in the toolbar's highlight and in the recorded assertion.
 */

/** One element of the chain, as for a click, and whether it shows text of its own. */
export interface AssertChainNode extends HitChainNode {
  /** A non-blank text node is a direct child of the element (its own words, not only its children's). */
  ownText?: boolean
}

/** What an assertion asks of its target. */
export type AssertPickKind = 'visible' | 'text' | 'value' | 'checked' | 'hidden' | 'count'

export type AssertTargetDecision =
  | { kind: 'element'; index: number; reason: string }
  | { kind: 'none'; warning: string }

/** Elements that mean something by their tag alone: a heading, an image, a cell, a list item, a paragraph. */
export const MEANINGFUL_TAGS: ReadonlySet<string> = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'img',
  'svg',
  'canvas',
  'video',
  'audio',
  'progress',
  'meter',
  'p',
  'li',
  'td',
  'th',
  'dt',
  'dd',
  'caption',
  'legend',
  'figcaption',
  'label',
  'output',
  'code',
  'pre',
  'blockquote',
])

/** ARIA roles of elements that are an assertion's subject themselves (not the containers of one). */
export const MEANINGFUL_ROLES: ReadonlySet<string> = new Set([
  'heading',
  'img',
  'alert',
  'status',
  'log',
  'timer',
  'marquee',
  'tooltip',
  'note',
  'cell',
  'columnheader',
  'rowheader',
  'listitem',
  'paragraph',
  'term',
  'definition',
  'caption',
  'progressbar',
  'meter',
  'math',
  'code',
])

/** Controls an assertion is about as a whole (a button's inner span is the button). */
const FORM_CONTROL_TAGS = new Set(['input', 'select', 'textarea'])
const FORM_CONTROL_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'spinbutton',
  'slider',
  'checkbox',
  'radio',
  'switch',
])

const roleOf = (n: HitChainNode) => (n.role ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? ''
const describeNode = (n: HitChainNode) => `<${n.tagName.toLowerCase()}${n.role ? ` role=${n.role}` : ''}>`

/** The element is a subject by itself: its tag or role means something, or it shows words of its own. */
export function isMeaningfulNode(node: AssertChainNode): boolean {
  const tag = node.tagName.toLowerCase()
  if (DOCUMENT_TAGS.has(tag)) return false
  const role = roleOf(node)
  // a container role (dialog, document, region, group, list…) is not a subject, whatever its markup
  if (role && !MEANINGFUL_ROLES.has(role) && clickTargetKind(node) === null) return node.ownText === true
  return MEANINGFUL_TAGS.has(tag) || MEANINGFUL_ROLES.has(role) || node.ownText === true
}

export interface AssertTargetOptions {
  /** The viewport, to bound the control a pick may grow to. */
  viewport?: { width: number; height: number } | null
  /**
   * A control around the hit element (a link, a button) is the subject only when it covers at most this share of
   * the viewport (default 0.25): a whole card made one link is not what a person pointed at in it.
   */
  maxControlViewportShare?: number
}

/**
 * The element an assert pick at the chain's first node means:
 * 1. a native control, an element with an interactive role, or a label of a control on the way up (the text inside
 *    a button is the button; a value or checked pick on a label is about its control), unless it is larger than
 *    `maxControlViewportShare` of the viewport; for a value or checked pick only a form control or a label counts;
 * 2. else the nearest element that is a subject by itself (`isMeaningfulNode`): a heading, an image, a cell, an
 *    element with words of its own;
 * 3. else the hit element itself (the smallest one under the pointer).
 * Handlers, tabindex and container roles (a modal's `role=document` with a mousedown listener) never make an
 * element the subject, and the document (`html`, `body`) never is one.
 */
export function chooseAssertTarget(
  chain: readonly AssertChainNode[],
  kind: AssertPickKind = 'visible',
  opts: AssertTargetOptions = {},
): AssertTargetDecision {
  const share = opts.maxControlViewportShare ?? 0.25
  const viewportArea = opts.viewport ? opts.viewport.width * opts.viewport.height : 0
  const end = chain.findIndex((n) => DOCUMENT_TAGS.has(n.tagName.toLowerCase()))
  const nodes = end === -1 ? chain : chain.slice(0, end)
  if (nodes.length === 0)
    return {
      kind: 'none',
      warning: `nothing to assert on under the point (hit ${chain[0] ? describeNode(chain[0]) : 'nothing'})`,
    }
  const stateful = kind === 'value' || kind === 'checked'
  for (const [index, node] of nodes.entries()) {
    const why = clickTargetKind(node)
    if (why === null || why === 'handler') continue
    if (stateful) {
      const tag = node.tagName.toLowerCase()
      if (why !== 'label' && !FORM_CONTROL_TAGS.has(tag) && !FORM_CONTROL_ROLES.has(roleOf(node))) continue
    }
    if (viewportArea > 0 && areaOf(node.box) > share * viewportArea) break
    return { kind: 'element', index, reason: `${describeNode(node)} is a control` }
  }
  const meaningful = nodes.findIndex(isMeaningfulNode)
  if (meaningful !== -1)
    return {
      kind: 'element',
      index: meaningful,
      reason: `${describeNode(nodes[meaningful] as AssertChainNode)} is the nearest subject`,
    }
  return {
    kind: 'element',
    index: 0,
    reason: `${describeNode(nodes[0] as AssertChainNode)} is the element under the point`,
  }
}
