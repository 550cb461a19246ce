import { countSameLabel, labelKeys } from '@qa/matcher'
import type { ElementIdentity, Selectors } from '@qa/model'
import type { CDPSession, Page } from 'playwright-core'
import { listCandidateLabels } from './candidate-source'
import { nodeForViewportPoint } from './cdp-document-point'
import {
  actionableAncestorInPage,
  deepActiveElementInPage,
  describeElementsInPage,
  type PageElementDescription,
  slottedActionableInPage,
} from './page-scripts'

/** An element as recorded: its identity for the file, selectors, and what the recorder needs besides. */
export interface CapturedElement {
  identity: ElementIdentity
  selectors: Selectors
  description: PageElementDescription
  /** CDP backend node id, valid for this page load only (used to coalesce typing into one field). */
  backendNodeId: number
}

const DESCRIBE_ONE = `function () { return (${describeElementsInPage.toString()})([this])[0] }`
const ACTIONABLE = `function (x, y) { return (${slottedActionableInPage.toString()})(this, x, y, ${actionableAncestorInPage.toString()}) }`

/** A CDP session on a page, with the DOM and Accessibility domains enabled once. */
export interface CdpIdentityReader {
  readonly session: CDPSession
  /** The element at a viewport point (CSS pixels), lifted to its actionable ancestor. */
  atPoint(x: number, y: number): Promise<CapturedElement | null>
  /** The focused element, through shadow roots and same-origin iframes. */
  focused(): Promise<CapturedElement | null>
  detach(): Promise<void>
}

const round2 = (v: number) => Math.round(v * 100) / 100

function buildIdentity(
  d: PageElementDescription,
  ax: { role: string | null; name: string | null },
  backendNodeId: number,
): ElementIdentity {
  const identity: ElementIdentity = {
    tagName: d.tagName,
    boundingBox: { x: round2(d.box.x), y: round2(d.box.y), width: round2(d.box.width), height: round2(d.box.height) },
    capturedAt: Date.now(),
    backendNodeId,
  }
  const set = <K extends keyof ElementIdentity>(key: K, value: ElementIdentity[K] | null | undefined) => {
    if (value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0) && value !== '')
      identity[key] = value
  }
  set('axRole', ax.role)
  set('axName', ax.name)
  set('ariaLabel', d.ariaLabel)
  set('dataTestId', d.dataTestId)
  set('name', d.name)
  set('type', d.type)
  set('placeholder', d.placeholder)
  set('textContent', d.textContent)
  set('id', d.id)
  set('classNames', d.classNames)
  set('href', d.href)
  set('xpath', d.xpath)
  set('neighborText', d.neighborText)
  set('framePath', d.framePath)
  set('shadowPath', d.shadowPath)
  return identity
}

const attr = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')

function buildSelectors(d: PageElementDescription): Selectors {
  const fallbacks: string[] = []
  if (d.dataTestId) fallbacks.push(`[data-testid="${attr(d.dataTestId)}"]`)
  if (d.name) fallbacks.push(`${d.tagName}[name="${attr(d.name)}"]`)
  if (d.ariaLabel) fallbacks.push(`[aria-label="${attr(d.ariaLabel)}"]`)
  if (d.id) fallbacks.push(`#${d.id.replace(/([^a-zA-Z0-9_-])/g, '\\$1')}`)
  return { css: d.css, xpath: d.xpath, fallbacks: fallbacks.filter((f) => f !== d.css) }
}

/** Roles Chromium reports for elements that carry no semantics. */
const NON_ROLES = new Set([
  'generic',
  'none',
  'presentation',
  'StaticText',
  'InlineTextBox',
  'LineBreak',
  'RootWebArea',
  'Ignored',
])

/**
 * How many other elements of the element's frame carry a label agreeing with its own (the matcher's
 * `countSameLabel`, the same rule the replay applies), or null when the page cannot tell (navigating away).
 */
async function sameLabelCountOf(page: Page, identity: ElementIdentity): Promise<number | null> {
  if (labelKeys(identity).length === 0) return null
  try {
    const candidates = await listCandidateLabels(page, identity.framePath)
    return countSameLabel(identity, { xpath: identity.xpath, boundingBox: identity.boundingBox }, candidates)
  } catch {
    return null
  }
}

export async function createCdpIdentityReader(page: Page): Promise<CdpIdentityReader> {
  const session = await page.context().newCDPSession(page)
  await session.send('DOM.enable')
  await session.send('Accessibility.enable')
  await session.send('DOM.getDocument', { depth: 0 })

  async function axOf(backendNodeId: number): Promise<{ role: string | null; name: string | null }> {
    try {
      const { nodes } = await session.send('Accessibility.getPartialAXTree', { backendNodeId, fetchRelatives: false })
      const node = nodes.find((n) => n.backendDOMNodeId === backendNodeId) ?? nodes[0]
      const role = node?.role?.value ? String(node.role.value) : null
      const name = node?.name?.value ? String(node.name.value).trim() : null
      return { role: role && !NON_ROLES.has(role) ? role : null, name: name || null }
    } catch {
      return { role: null, name: null }
    }
  }

  async function fromObject(objectId: string): Promise<CapturedElement | null> {
    const { node } = await session.send('DOM.describeNode', { objectId })
    const backendNodeId = node.backendNodeId
    const { result } = await session.send('Runtime.callFunctionOn', {
      functionDeclaration: DESCRIBE_ONE,
      objectId,
      returnByValue: true,
    })
    const description = result.value as PageElementDescription | undefined
    if (!description) return null
    const ax = await axOf(backendNodeId)
    const identity = buildIdentity(description, ax, backendNodeId)
    const sameLabelCount = await sameLabelCountOf(page, identity)
    if (sameLabelCount !== null) identity.sameLabelCount = sameLabelCount
    return {
      identity,
      selectors: buildSelectors(description),
      description,
      backendNodeId,
    }
  }

  return {
    session,
    async atPoint(x, y) {
      let backendNodeId: number
      try {
        ;({ backendNodeId } = await nodeForViewportPoint(session, x, y, {
          includeUserAgentShadowDOM: false,
          // false: an overlay with pointer-events: none (a scroll shadow, a ripple) does not receive the click, so it is
          // not what was clicked (true would hit-test it like any element).
          ignorePointerEventsNone: false,
        }))
      } catch {
        // The document changed under us (navigation); the caller records coordinates only.
        await session.send('DOM.getDocument', { depth: 0 }).catch(() => undefined)
        return null
      }
      const { object } = await session.send('DOM.resolveNode', { backendNodeId })
      if (!object.objectId) return null
      const { result } = await session.send('Runtime.callFunctionOn', {
        functionDeclaration: ACTIONABLE,
        arguments: [{ value: x }, { value: y }],
        objectId: object.objectId,
        returnByValue: false,
      })
      if (!result.objectId) return null
      return fromObject(result.objectId)
    },
    async focused() {
      const { result } = await session.send('Runtime.evaluate', {
        expression: `(${deepActiveElementInPage.toString()})()`,
        returnByValue: false,
      })
      if (!result.objectId || result.subtype === 'null') return null
      return fromObject(result.objectId)
    },
    async detach() {
      await session.detach().catch(() => undefined)
    },
  }
}
