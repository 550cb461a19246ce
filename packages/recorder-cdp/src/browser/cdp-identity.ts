import {
  type AssertPickKind,
  countExactLabel,
  countFieldsInLandmark,
  countSameLabel,
  DOCUMENT_TAGS,
  fieldKind,
  labelKeys,
  landmarkOf,
} from '@qa/matcher'
import type { ElementIdentity, Selectors } from '@qa/model'
import type { CDPSession, Page } from 'playwright-core'
import { listCandidateLabels } from '../replay/candidate-source'
import { operatedControl, resolveAssertTarget, resolveClickTarget } from './cdp-click-target'
import { nodeForViewportPoint } from './cdp-document-point'
import { boundaryPlacement } from './cdp-frame-place'
import { deepFocusIn, secretFieldsOf } from './cdp-secret-fields'
import { describeElementsInPage, type PageElementDescription } from '../injected/page-scripts'

/** An element as recorded: its identity for the file, selectors, and what the recorder needs besides. */
export interface CapturedElement {
  identity: ElementIdentity
  selectors: Selectors
  description: PageElementDescription
  /** CDP backend node id, valid for this page load only (used to coalesce typing into one field). */
  backendNodeId: number
  /** The out-of-process iframe target the element lives in (its frame id); absent: the page's own target. */
  targetId?: string
  /** The control the element operates: a clicked label's input, a styled switch's checkbox (`action.operates`). */
  operates?: CapturedElement | null
}

/** What a click at a point means: the element to record, or no element and a warning (a coordinate step). */
export interface ClickTargetAt {
  target: CapturedElement | null
  warning: string | null
}

const DESCRIBE_ONE = `function () { return (${describeElementsInPage.toString()})([this])[0] }`

/** A CDP session on a page, with the DOM and Accessibility domains enabled once. */
export interface CdpIdentityReader {
  readonly session: CDPSession
  /**
   * The element a click at a viewport point (CSS pixels) means: an icon, a pseudo-element or a text node
   * resolves to the nearest interactive ancestor (`chooseClickTarget`); null when there is none.
   */
  atPoint(x: number, y: number): Promise<CapturedElement | null>
  /** `atPoint`, with the warning a coordinate step is recorded with when nothing interactive is there. */
  clickTargetAt(x: number, y: number): Promise<ClickTargetAt>
  /**
   * What an assertion picked at the point: the click target as `atPoint` resolves it, else the element itself
   * (a status line or a heading is no control, but its text can be asserted); never the document.
   */
  assertTargetAt(x: number, y: number): Promise<CapturedElement | null>
  /**
   * The element an assert pick at a top-level viewport point is about (`chooseAssertTarget`): the
   * smallest meaningful element there — a heading, a text, a button inside a dialog, not the dialog — with the
   * control it operates (a label's field), through frames as `atPoint`; null when only the document is there.
   */
  assertPickAt(x: number, y: number, kind: AssertPickKind, opts?: { light?: boolean }): Promise<CapturedElement | null>
  /**
   * The focused element, through open and closed shadow roots and every iframe, cross-origin (out-of-process)
   * ones included: such an element is read in its frame's own CDP session and placed in the top-level viewport.
   */
  focused(): Promise<CapturedElement | null>
  /**
   * An element as the page described it earlier (at pointer-down, `PointerDownSnapshot`), when it is gone or
   * changed since: role and name are the page's approximations of the accessibility tree's (`implicitRole`,
   * `accessibleName`), and there is no live node (backendNodeId 0).
   */
  fromDescription(description: PageElementDescription): Promise<CapturedElement>
  detach(): Promise<void>
}

const round2 = (v: number) => Math.round(v * 100) / 100

function buildIdentity(
  d: PageElementDescription,
  ax: { role: string | null; name: string | null },
  backendNodeId: number | null,
): ElementIdentity {
  const identity: ElementIdentity = {
    tagName: d.tagName,
    boundingBox: { x: round2(d.box.x), y: round2(d.box.y), width: round2(d.box.width), height: round2(d.box.height) },
    capturedAt: Date.now(),
  }
  if (backendNodeId !== null) identity.backendNodeId = backendNodeId
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
  set('pageScroll', d.pageScroll)
  set('id', d.id)
  set('classNames', d.classNames)
  set('iconClasses', d.iconClasses)
  set('href', d.href)
  set('xpath', d.xpath)
  set('neighborText', d.neighborText)
  set('framePath', d.framePath)
  set('shadowPath', d.shadowPath)
  set('groupPosition', d.groupPosition)
  return identity
}

/** A CSS string's content: quotes and backslashes escaped, control characters as hex escapes (a raw line break ends it). */
const attr = (v: string) =>
  Array.from(v, (c) => {
    const code = c.charCodeAt(0)
    if (c === '\\' || c === '"') return `\\${c}`
    return code < 0x20 || code === 0x7f ? `\\${code.toString(16)} ` : c
  }).join('')

export function buildSelectors(d: PageElementDescription): Selectors {
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
  'LabelText',
])

/**
 * How many other elements of the element's frame carry a label agreeing with its own (the matcher's
 * `countSameLabel`, the same rule the replay applies), and for a form field in a landmark how many fields of its
 * kind that landmark holds (`countFieldsInLandmark`); each null when the page cannot tell (navigating away) or it
 * does not apply.
 */
async function countsOf(
  page: Page,
  identity: ElementIdentity,
): Promise<{ sameLabelCount: number | null; exactLabelCount: number | null; fieldsInLandmark: number | null }> {
  const labelled = labelKeys(identity).length > 0
  const field = fieldKind(identity) !== null && landmarkOf(identity.xpath) !== null
  const none = { sameLabelCount: null, exactLabelCount: null, fieldsInLandmark: null }
  if (!labelled && !field) return none
  try {
    const candidates = await listCandidateLabels(page, identity.framePath)
    const self = { xpath: identity.xpath, boundingBox: identity.boundingBox }
    return {
      sameLabelCount: labelled ? countSameLabel(identity, self, candidates) : null,
      exactLabelCount: labelled ? countExactLabel(identity, self, candidates) : null,
      fieldsInLandmark: field ? countFieldsInLandmark(identity, candidates) : null,
    }
  } catch {
    return none
  }
}

/** Puts the counts of `countsOf` into the identity. */
async function addCounts(page: Page, identity: ElementIdentity): Promise<void> {
  const { sameLabelCount, exactLabelCount, fieldsInLandmark } = await countsOf(page, identity)
  if (sameLabelCount !== null) identity.sameLabelCount = sameLabelCount
  if (exactLabelCount !== null) identity.exactLabelCount = exactLabelCount
  if (fieldsInLandmark !== null) identity.fieldsInLandmark = fieldsInLandmark
}

export async function createCdpIdentityReader(page: Page): Promise<CdpIdentityReader> {
  const session = await page.context().newCDPSession(page)
  await session.send('DOM.enable')
  await session.send('Accessibility.enable')
  await session.send('DOM.getDocument', { depth: 0 })

  async function axOf(
    backendNodeId: number,
    s: CDPSession = session,
  ): Promise<{ role: string | null; name: string | null }> {
    try {
      const { nodes } = await s.send('Accessibility.getPartialAXTree', { backendNodeId, fetchRelatives: false })
      const node = nodes.find((n) => n.backendDOMNodeId === backendNodeId) ?? nodes[0]
      const role = node?.role?.value ? String(node.role.value) : null
      const name = node?.name?.value ? String(node.name.value).trim() : null
      return { role: role && !NON_ROLES.has(role) ? role : null, name: name || null }
    } catch {
      return { role: null, name: null }
    }
  }

  /** Where an element of an out-of-process frame is: that frame's session, and how to place its description. */
  interface InFrame {
    session: CDPSession
    targetId: string
    origin: { x: number; y: number }
    framePath: string[]
  }

  async function fromObject(
    objectId: string,
    inFrame?: InFrame,
    opts: { sameLabelCount?: boolean } = {},
  ): Promise<CapturedElement | null> {
    const s = inFrame?.session ?? session
    // the page's description and the accessibility name are read together (pipelined): a person's click lands
    // ~100 ms after pointer-down and may rename the element
    const described = s.send('Runtime.callFunctionOn', {
      functionDeclaration: DESCRIBE_ONE,
      objectId,
      returnByValue: true,
    })
    // a frame of another origin in this process (another port of the same host): its script stops below it
    const boundary = boundaryPlacement(s, objectId).catch(() => null)
    const { node } = await s.send('DOM.describeNode', { objectId })
    const backendNodeId = node.backendNodeId
    const [{ result }, ax, above] = await Promise.all([described, axOf(backendNodeId, s), boundary])
    const description = result.value as PageElementDescription | undefined
    if (!description) return null
    if (above && (above.dx !== 0 || above.dy !== 0 || above.framePath.length > 0)) {
      description.box = { ...description.box, x: description.box.x + above.dx, y: description.box.y + above.dy }
      description.framePath = [...above.framePath, ...description.framePath]
    }
    if (inFrame) {
      // the frame's script sees neither its iframe element nor where it is: both come from the parent
      description.box = {
        ...description.box,
        x: description.box.x + inFrame.origin.x,
        y: description.box.y + inFrame.origin.y,
      }
      description.framePath = [...inFrame.framePath, ...description.framePath]
    }
    const identity = buildIdentity(description, ax, backendNodeId)
    // the count asks every frame of the page: a highlight under the pointer does without it
    if (opts.sameLabelCount !== false) await addCounts(page, identity)
    return {
      identity,
      selectors: buildSelectors(description),
      description,
      backendNodeId,
      ...(inFrame ? { targetId: inFrame.targetId } : {}),
    }
  }

  /**
   * The node a click at a top-level viewport point hits, through cross-origin (out-of-process) iframes: the top
   * document's hit test stops at such an iframe (its document lives in another target), so the hit test goes on in
   * that frame's own session, at the point in its viewport, as deep as frames are nested.
   */
  async function hitThrough(
    x: number,
    y: number,
  ): Promise<{ backendNodeId: number; inFrame?: InFrame; point: { x: number; y: number } }> {
    let s = session
    let inFrame: InFrame | undefined
    let point = { x, y }
    for (let hops = 0; ; hops++) {
      const { backendNodeId } = await nodeForViewportPoint(s, point.x, point.y, {
        includeUserAgentShadowDOM: false,
        // false: an overlay with pointer-events: none (a scroll shadow, a ripple) does not receive the click, so it
        // is not what was clicked (true would hit-test it like any element).
        ignorePointerEventsNone: false,
      })
      if (hops >= 8) return { backendNodeId, point, ...(inFrame ? { inFrame } : {}) }
      const { node } = await s.send('DOM.describeNode', { backendNodeId, depth: 1 })
      const outOfProcess = /^(IFRAME|FRAME)$/.test(node.nodeName) && node.frameId && !node.contentDocument
      if (!outOfProcess) return { backendNodeId, point, ...(inFrame ? { inFrame } : {}) }
      const fields = secretFieldsOf(page)
      const [frameSession, origin, iframe] = await Promise.all([
        fields.sessionOfFrame(node.frameId!),
        fields.frameOrigin(node.frameId!),
        s
          .send('DOM.resolveNode', { backendNodeId })
          .then(({ object }) =>
            s.send('Runtime.callFunctionOn', {
              functionDeclaration: DESCRIBE_ONE,
              objectId: object.objectId!,
              returnByValue: true,
            }),
          )
          .then(({ result }) => result.value as PageElementDescription | undefined)
          .catch(() => undefined),
      ])
      // the frame is not laid out, or its target is not reachable: the iframe itself is what is known
      if (!frameSession || !origin || !iframe) return { backendNodeId, point, ...(inFrame ? { inFrame } : {}) }
      await frameSession.send('Accessibility.enable').catch(() => undefined)
      inFrame = {
        session: frameSession,
        targetId: node.frameId!,
        origin,
        framePath: [...(inFrame?.framePath ?? []), ...iframe.framePath, iframe.css],
      }
      s = frameSession
      point = { x: x - origin.x, y: y - origin.y }
    }
  }

  /** Why the last `atPoint` found no element (read by `clickTargetAt`). */
  let lastWarning: string | null = null
  const reader: CdpIdentityReader = {
    session,
    async clickTargetAt(x, y) {
      const target = await reader.atPoint(x, y)
      return { target, warning: target ? null : lastWarning }
    },
    async atPoint(x, y) {
      lastWarning = 'the page changed under the pointer (navigation)'
      let hitAt: Awaited<ReturnType<typeof hitThrough>>
      try {
        hitAt = await hitThrough(x, y)
      } catch {
        // The document changed under us (navigation); the caller records coordinates only.
        await session.send('DOM.getDocument', { depth: 0 }).catch(() => undefined)
        return null
      }
      const s = hitAt.inFrame?.session ?? session
      const { object } = await s.send('DOM.resolveNode', { backendNodeId: hitAt.backendNodeId })
      if (!object.objectId) return null
      const hit = await resolveClickTarget(s, object.objectId, page.viewportSize(), hitAt.point)
      lastWarning = hit.warning
      if (!hit.objectId) return null
      const target = await fromObject(hit.objectId, hitAt.inFrame)
      // after the clicked element's identity (the click may change it): the control it operates, if any
      const control = target ? await operatedControl(s, hit.objectId) : null
      if (target && control) target.operates = await fromObject(control, hitAt.inFrame).catch(() => null)
      return target
    },
    async assertTargetAt(x, y) {
      const target = await reader.atPoint(x, y)
      if (target) return target
      try {
        const at = await hitThrough(x, y)
        const s = at.inFrame?.session ?? session
        const { object } = await s.send('DOM.resolveNode', { backendNodeId: at.backendNodeId })
        const element = object.objectId ? await fromObject(object.objectId, at.inFrame) : null
        return element && !DOCUMENT_TAGS.has(element.identity.tagName.toLowerCase()) ? element : null
      } catch {
        return null
      }
    },
    async assertPickAt(x, y, kind, opts = {}) {
      // light: for the highlight under the pointer (no count of look-alikes in every frame)
      const capture = { sameLabelCount: opts.light !== true }
      let at: Awaited<ReturnType<typeof hitThrough>>
      try {
        at = await hitThrough(x, y)
      } catch {
        await session.send('DOM.getDocument', { depth: 0 }).catch(() => undefined)
        return null
      }
      const s = at.inFrame?.session ?? session
      const { object } = await s.send('DOM.resolveNode', { backendNodeId: at.backendNodeId })
      if (!object.objectId) return null
      const picked = await resolveAssertTarget(s, object.objectId, kind, page.viewportSize(), at.point)
      if (!picked) return null
      const target = await fromObject(picked, at.inFrame, capture)
      const control = target ? await operatedControl(s, picked) : null
      if (target && control) target.operates = await fromObject(control, at.inFrame, capture).catch(() => null)
      return target
    },
    async focused() {
      let focus = await deepFocusIn(session)
      let inFrame: InFrame | undefined
      // into cross-origin iframes (each its own target), as deep as they are nested
      for (let hops = 0; focus && 'frameId' in focus && hops < 8; hops++) {
        const fields = secretFieldsOf(page)
        const [frameSession, origin, iframe] = await Promise.all([
          fields.sessionOfFrame(focus.frameId),
          fields.frameOrigin(focus.frameId),
          fromObject(focus.iframeObjectId, inFrame),
        ])
        if (!frameSession || !origin) return iframe
        inFrame = {
          session: frameSession,
          targetId: focus.frameId,
          origin,
          framePath: iframe ? [...iframe.description.framePath, iframe.description.css] : [],
        }
        await frameSession.send('Accessibility.enable').catch(() => undefined)
        focus = await deepFocusIn(frameSession)
      }
      if (!focus || 'frameId' in focus) return null
      return fromObject(focus.objectId, inFrame)
    },
    async fromDescription(description) {
      const role = description.implicitRole
      const ax = { role: role && !NON_ROLES.has(role) ? role : null, name: description.accessibleName }
      const identity = buildIdentity(description, ax, null)
      await addCounts(page, identity)
      return { identity, selectors: buildSelectors(description), description, backendNodeId: 0 }
    },
    async detach() {
      await session.detach().catch(() => undefined)
    },
  }
  return reader
}
