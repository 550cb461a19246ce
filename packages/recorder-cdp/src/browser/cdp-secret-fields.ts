import type { CDPSession, Frame, Page } from 'playwright-core'
import { recorderWorldOf } from './cdp-recorder-world'
import { SECRET_FIELDS_KEY, type SecretFieldsInFrame } from '../record/page-input-event'

/**
 * Password fields wherever a page keeps them, even hidden from its scripts: in every shadow root, closed ones too (CDP
 * sees them: `DOM.getDocument({ pierce: true })`, `DOM.describeNode`), in same-process iframes, and in
 * cross-origin iframes that Chromium renders in another process. Those are targets of their own: Playwright
 * auto-attaches them (`Target.setAutoAttach`, flatten) and opens a CDP session on one on request
 * (`newCDPSession(frame)`); the fields are read in that session and placed by the iframe's content box.
 */

export interface ViewportBox {
  x: number
  y: number
  width: number
  height: number
}

/** A field that received a secret: the target it lives in (null: the page's own) and its backend node id. */
export interface SecretFieldRef {
  targetId: string | null
  backendNodeId: number
}

/** The focused element as CDP sees it: a remote object in `session`, or an out-of-process iframe to go into. */
export type DeepFocus = { objectId: string } | { frameId: string; iframeObjectId: string }

const ACTIVE_ELEMENT = 'function () { return this.activeElement }'

/**
 * The element that has focus, through open and closed shadow roots and same-process iframes. An out-of-process
 * iframe is answered with its frame id (the id of its target): the focus goes on in that target's session.
 */
export async function deepFocusIn(session: CDPSession): Promise<DeepFocus | null> {
  const { result } = await session.send('Runtime.evaluate', { expression: 'document.activeElement' })
  let objectId = result.objectId
  for (let depth = 0; objectId && depth < 32; depth++) {
    const { node } = await session.send('DOM.describeNode', { objectId, depth: 1, pierce: true })
    const inner = [...(node.shadowRoots ?? []), ...(node.contentDocument ? [node.contentDocument] : [])]
    let next: string | undefined
    for (const root of inner) {
      const { object } = await session.send('DOM.resolveNode', { backendNodeId: root.backendNodeId })
      if (!object.objectId) continue
      const { result: active } = await session.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: ACTIVE_ELEMENT,
      })
      if (active.objectId && active.subtype !== 'null') {
        const { node: activeNode } = await session.send('DOM.describeNode', { objectId: active.objectId })
        // a same-process iframe whose document has no focused field answers with its body: the iframe itself stays
        if (node.contentDocument && activeNode.nodeName === 'BODY') continue
        next = active.objectId
        break
      }
    }
    if (next) {
      objectId = next
      continue
    }
    if (node.nodeName === 'IFRAME' && node.frameId && !node.contentDocument)
      return { frameId: node.frameId, iframeObjectId: objectId }
    return { objectId }
  }
  return null
}

/** Is an `input` a secret by its attributes (`type=password`, or `autocomplete` of a password)? */
export function isSecretInputAttributes(attributes: readonly string[] | undefined): boolean {
  if (!attributes) return false
  for (let i = 0; i + 1 < attributes.length; i += 2) {
    const name = attributes[i]!.toLowerCase()
    const value = attributes[i + 1]!.trim().toLowerCase()
    if (name === 'type' && value === 'password') return true
    if (name === 'autocomplete' && /\b(current|new)-password\b/.test(value)) return true
  }
  return false
}

interface DomNode {
  nodeName: string
  backendNodeId: number
  attributes?: string[]
  frameId?: string
  children?: DomNode[]
  shadowRoots?: DomNode[]
  contentDocument?: DomNode
}

export interface SecretFields {
  /** A field that received a secret stays masked in every later screenshot, whatever its type becomes. */
  remember(ref: SecretFieldRef): void
  isRemembered(ref: SecretFieldRef): boolean
  /** Remembers the focused field (the one a secret was just typed into); returns it, or null. */
  rememberFocused(): Promise<SecretFieldRef | null>
  /** The CDP session of an out-of-process iframe's target, or null when the frame renders in its parent's process. */
  sessionOfFrame(frameId: string): Promise<CDPSession | null>
  /** Content-box origin of an out-of-process iframe in the top-level viewport (CSS pixels). */
  frameOrigin(frameId: string): Promise<{ x: number; y: number } | null>
  /** Viewport boxes of every password field (every frame, every shadow root) and every remembered field. */
  boxes(): Promise<ViewportBox[]>
}

const trackers = new WeakMap<Page, SecretFields>()

/** The page's secret fields (one tracker per page, so that a field remembered while recording is masked later). */
export function secretFieldsOf(page: Page): SecretFields {
  let tracker = trackers.get(page)
  if (!tracker) {
    tracker = createSecretFields(page)
    trackers.set(page, tracker)
  }
  return tracker
}

function createSecretFields(page: Page): SecretFields {
  const remembered = new Map<string, SecretFieldRef>()
  const keyOf = (ref: SecretFieldRef) => `${ref.targetId ?? ''}#${ref.backendNodeId}`
  let pageSession: Promise<CDPSession> | null = null
  /** Per Playwright frame: its own target's session (out of process), or null (rendered by its parent). */
  const frameSessions = new WeakMap<Frame, Promise<{ session: CDPSession; targetId: string } | null>>()

  const mainSession = (): Promise<CDPSession> => {
    pageSession ??= page
      .context()
      .newCDPSession(page)
      .then(async (s) => {
        await s.send('DOM.enable')
        return s
      })
    return pageSession.catch((error) => {
      pageSession = null
      throw error
    })
  }

  const ownTarget = (frame: Frame) => {
    let known = frameSessions.get(frame)
    if (!known) {
      known = page
        .context()
        .newCDPSession(frame)
        .then(async (session) => {
          await session.send('DOM.enable')
          const { targetInfo } = await session.send('Target.getTargetInfo')
          return { session, targetId: targetInfo.targetId }
        })
        .catch(() => null) // "not a separate target": the frame is part of its parent's document tree
      frameSessions.set(frame, known)
    }
    return known
  }

  /** Every out-of-process frame target, parents before children. */
  async function outOfProcessFrames(): Promise<{ session: CDPSession; targetId: string }[]> {
    const out: { session: CDPSession; targetId: string }[] = []
    const queue = [...page.mainFrame().childFrames()]
    while (queue.length > 0) {
      const frame = queue.shift()!
      if (frame.isDetached()) continue
      const own = await ownTarget(frame)
      if (own) out.push(own)
      queue.push(...frame.childFrames())
    }
    return out
  }

  async function documentOf(session: CDPSession): Promise<DomNode> {
    const { root } = await session.send('DOM.getDocument', { depth: -1, pierce: true })
    return root as DomNode
  }

  /** Password inputs and iframes (by frame id) of one target's tree, closed shadow roots included. */
  function walk(root: DomNode): { secrets: number[]; iframes: Map<string, number> } {
    const secrets: number[] = []
    const iframes = new Map<string, number>()
    const stack: DomNode[] = [root]
    while (stack.length > 0) {
      const node = stack.pop()!
      if (node.nodeName === 'INPUT' && isSecretInputAttributes(node.attributes)) secrets.push(node.backendNodeId)
      if (node.nodeName === 'IFRAME' && node.frameId && !node.contentDocument)
        iframes.set(node.frameId, node.backendNodeId)
      if (node.children) stack.push(...node.children)
      if (node.shadowRoots) stack.push(...node.shadowRoots)
      if (node.contentDocument) stack.push(node.contentDocument)
    }
    return { secrets, iframes }
  }

  async function boxOf(
    session: CDPSession,
    backendNodeId: number,
    origin: { x: number; y: number },
    which: 'border' | 'content' = 'border',
  ): Promise<ViewportBox | null> {
    try {
      const { model } = await session.send('DOM.getBoxModel', { backendNodeId })
      const quad = model[which]
      const xs = [quad[0]!, quad[2]!, quad[4]!, quad[6]!]
      const ys = [quad[1]!, quad[3]!, quad[5]!, quad[7]!]
      const x = Math.min(...xs)
      const y = Math.min(...ys)
      return { x: origin.x + x, y: origin.y + y, width: Math.max(...xs) - x, height: Math.max(...ys) - y }
    } catch {
      return null // not rendered (display: none) or gone with a navigation
    }
  }

  const tracker: SecretFields = {
    remember(ref) {
      remembered.set(keyOf(ref), ref)
    },
    isRemembered(ref) {
      return remembered.has(keyOf(ref))
    },
    async rememberFocused() {
      let session = await mainSession()
      let targetId: string | null = null
      for (let hops = 0; hops < 8; hops++) {
        const focus = await deepFocusIn(session).catch(() => null)
        if (!focus) return null
        if ('frameId' in focus) {
          const inner = await tracker.sessionOfFrame(focus.frameId)
          if (!inner) return null
          session = inner
          targetId = focus.frameId
          continue
        }
        const { node } = await session.send('DOM.describeNode', { objectId: focus.objectId })
        const ref = { targetId, backendNodeId: node.backendNodeId }
        tracker.remember(ref)
        return ref
      }
      return null
    },
    async sessionOfFrame(frameId) {
      for (const own of await outOfProcessFrames()) if (own.targetId === frameId) return own.session
      return null
    },
    async frameOrigin(frameId) {
      const origins = new Map<string, { x: number; y: number }>()
      const main = await mainSession()
      for (const [id, iframe] of walk(await documentOf(main)).iframes) {
        const box = await boxOf(main, iframe, { x: 0, y: 0 }, 'content')
        if (box) origins.set(id, box)
      }
      for (const own of await outOfProcessFrames()) {
        const origin = origins.get(own.targetId)
        if (!origin) continue
        if (own.targetId === frameId) return origin
        for (const [id, iframe] of walk(await documentOf(own.session).catch(() => ({}) as DomNode)).iframes) {
          const box = await boxOf(own.session, iframe, origin, 'content')
          if (box) origins.set(id, box)
        }
      }
      return origins.get(frameId) ?? null
    },
    async boxes() {
      const boxes: ViewportBox[] = await reportedSecretBoxes(page)
      const origins = new Map<string | null, { x: number; y: number }>([[null, { x: 0, y: 0 }]])
      const targets: { targetId: string | null; session: CDPSession }[] = [
        { targetId: null, session: await mainSession() },
        ...(await outOfProcessFrames()),
      ]
      for (const { targetId, session } of targets) {
        const origin = origins.get(targetId)
        if (!origin) continue // an iframe that is not laid out (hidden): nothing of it is on the screenshot
        let tree: DomNode
        try {
          tree = await documentOf(session)
        } catch {
          continue
        }
        const { secrets, iframes } = walk(tree)
        for (const [frameId, iframe] of iframes) {
          const box = await boxOf(session, iframe, origin, 'content')
          if (box) origins.set(frameId, box)
        }
        const ids = new Set(secrets)
        for (const ref of remembered.values()) if (ref.targetId === targetId) ids.add(ref.backendNodeId)
        for (const id of ids) {
          const box = await boxOf(session, id, origin)
          if (box && box.width > 0 && box.height > 0) boxes.push(box)
        }
      }
      return boxes
    },
  }
  return tracker
}

/**
 * The fields the recorder's page script saw a secret typed into (`SECRET_FIELDS_KEY`), in every frame, placed in
 * the top-level viewport. The script lives in the recorder's world (`cdp-recorder-world.ts`): without one (a replay,
 * a scripted recording) nothing was reported. It fails closed: when a frame's fields cannot be read or placed (and
 * the frame is still there), this throws, so no screenshot is written in clear.
 */
export async function reportedSecretBoxes(page: Page): Promise<ViewportBox[]> {
  const world = recorderWorldOf(page)
  if (!world) return []
  const boxes: ViewportBox[] = []
  for (const frame of world.frames()) {
    let reported: SecretFieldsInFrame | null
    try {
      reported = await world.evaluate(
        frame,
        (key) => {
          const read = (window as unknown as Record<symbol, (() => SecretFieldsInFrame) | undefined>)[Symbol.for(key)]
          return typeof read === 'function' ? read() : null
        },
        SECRET_FIELDS_KEY,
      )
    } catch (error) {
      // a frame that went away meanwhile shows nothing
      if (!world.frames().includes(frame)) continue
      throw new Error(`the secret fields of frame ${frame.frameId} could not be read: ${String(error)}`)
    }
    if (!reported || reported.boxes.length === 0) continue
    let origin = { x: 0, y: 0 }
    if (!reported.top) {
      // the script placed its boxes in the viewport of the frame `hops` levels up: place that frame's iframe
      const placed = await world.placeFrame(frame, reported.hops).catch(() => null)
      if (!placed) throw new Error(`the secret fields of frame ${frame.frameId} could not be placed on the page`)
      origin = placed.origin
    }
    for (const b of reported.boxes)
      boxes.push({ x: origin.x + b.x, y: origin.y + b.y, width: b.width, height: b.height })
  }
  return boxes
}
