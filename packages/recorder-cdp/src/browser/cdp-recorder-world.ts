import type { CDPSession, Frame, Page } from 'playwright-core'
import { placeInDocument } from './cdp-frame-place'

/**
 * Where the recorder's page-side code lives while a person records, out of the page's reach: an isolated world of its
 * own in every frame (`Page.addScriptToEvaluateOnNewDocument` with a `worldName`), never the page's. The page's
 * scripts share the DOM with it but none of its JavaScript: its functions, its state, the prototypes it calls and
 * the binding it reports through (`Runtime.addBinding` for that world only) are out of their reach. Frames that
 * Chromium renders in another process are targets of their own: each gets the same world in its own CDP session.
 * Node talks to the world of a frame by that frame's CDP id (`WorldFrame`).
 */

/** A frame's recorder world: the CDP session that holds its document, its frame id and its context there. */
export interface WorldFrame {
  readonly session: CDPSession
  readonly frameId: string
  readonly contextId: number
}

export interface RecorderWorldOptions {
  /** The source run in every frame's world at document start (and at once in the frames there are). */
  source: string
  /** The name of the world and of its binding (each a fresh one per recording). */
  worldName: string
  bindingName: string
  /** A call of the binding from a frame's world: its payload (a JSON text), parsed. */
  onCall(frame: WorldFrame, payload: unknown): void
  /** A frame's world was created (a new document): for example to tell it the toolbar's state. */
  onFrame?(frame: WorldFrame): void
}

export interface RecorderWorld {
  /** The page's top frame id. */
  readonly mainFrameId: string
  isMainFrame(frame: WorldFrame): boolean
  /** The worlds of every frame there is now, the top one first. */
  frames(): WorldFrame[]
  /** The top frame's world, when its document has one now. */
  topFrame(): WorldFrame | undefined
  /** Runs `fn(arg)` in a frame's world; its value (JSON-serialisable), or a rejection when the frame is gone. */
  evaluate<A, R>(frame: WorldFrame, fn: (arg: A) => R, arg: A): Promise<Awaited<R>>
  /**
   * Where the frame `hops` levels up from `frame` is in the page: the origin of its viewport in the top-level
   * viewport (its iframe's content box), and the CSS path of its iframe from the top document (null where a
   * document on the way cannot be described). Null when that frame is gone or not laid out.
   */
  placeFrame(
    frame: WorldFrame,
    hops: number,
  ): Promise<{ origin: { x: number; y: number }; framePath: string[] | null } | null>
  dispose(): Promise<void>
}

const worlds = new WeakMap<Page, RecorderWorld>()

/** The recorder world of a page while it records (null otherwise: a replay, a scripted recording). */
export function recorderWorldOf(page: Page): RecorderWorld | null {
  return worlds.get(page) ?? null
}

interface DomNode {
  nodeName: string
  backendNodeId: number
  frameId?: string
  children?: DomNode[]
  shadowRoots?: DomNode[]
  contentDocument?: DomNode
}

/** The iframe (or frame) element that holds the frame `frameId`, in one target's document, closed shadow roots too. */
function findFrameOwner(root: DomNode, frameId: string): DomNode | null {
  const stack: DomNode[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (/^(IFRAME|FRAME)$/.test(node.nodeName) && node.frameId === frameId) return node
    if (node.children) stack.push(...node.children)
    if (node.shadowRoots) stack.push(...node.shadowRoots)
    if (node.contentDocument) stack.push(node.contentDocument)
  }
  return null
}

/** Installs the recorder's world in every frame of a page, now and in every document it loads until `dispose`. */
export async function createRecorderWorld(page: Page, opts: RecorderWorldOptions): Promise<RecorderWorld> {
  const context = page.context()
  const main = await context.newCDPSession(page)
  /** Every session the world is installed in, by the target id of its root frame (null: the page's own). */
  const sessions = new Map<CDPSession, { targetId: string | null; scriptId: string | null }>()
  /** Each frame's world, by frame id (a frame that moved into another process is in its new session). */
  const byFrame = new Map<string, WorldFrame>()
  const byContext = new Map<CDPSession, Map<number, WorldFrame>>()
  const knownTargets = new Set<string>()
  /** The world's installation in each out-of-process frame's target, by target id (done or under way). */
  const installs = new Map<string, Promise<void>>()
  let disposed = false

  const install = async (session: CDPSession, targetId: string | null) => {
    const contexts = new Map<number, WorldFrame>()
    byContext.set(session, contexts)
    sessions.set(session, { targetId, scriptId: null })
    session.on('Runtime.executionContextCreated', ({ context: created }) => {
      const frameId = (created.auxData as { frameId?: string } | undefined)?.frameId
      if (created.name !== opts.worldName || !frameId) return
      const frame: WorldFrame = { session, frameId, contextId: created.id }
      contexts.set(created.id, frame)
      byFrame.set(frameId, frame)
      if (!disposed) opts.onFrame?.(frame)
    })
    session.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
      const frame = contexts.get(executionContextId)
      if (!frame) return
      contexts.delete(executionContextId)
      if (byFrame.get(frame.frameId) === frame) byFrame.delete(frame.frameId)
    })
    session.on('Runtime.executionContextsCleared', () => {
      for (const frame of contexts.values()) if (byFrame.get(frame.frameId) === frame) byFrame.delete(frame.frameId)
      contexts.clear()
    })
    session.on('Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
      if (disposed || name !== opts.bindingName) return
      const frame = contexts.get(executionContextId)
      if (!frame) return
      let parsed: unknown
      try {
        parsed = JSON.parse(payload)
      } catch {
        return
      }
      opts.onCall(frame, parsed)
    })
    // (scripts for new documents run only in a session with the Page domain on)
    await session.send('Page.enable')
    await session.send('Runtime.enable')
    await session.send('Runtime.addBinding', { name: opts.bindingName, executionContextName: opts.worldName })
    const { identifier } = await session.send('Page.addScriptToEvaluateOnNewDocument', {
      source: opts.source,
      worldName: opts.worldName,
      runImmediately: true,
    })
    const known = sessions.get(session)
    if (known) known.scriptId = identifier
    // a frame of another site that appears later is a target of its own: it waits, its document not yet loaded,
    // until the world is installed there too (`holdUntilInstalled`)
    session.on('Target.attachedToTarget', (event) => {
      void holdUntilInstalled(session, event)
    })
    await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false })
  }

  /** A frame Chromium renders in another process gets the world in its own session (once per target). */
  const attachFrame = async (frame: Frame) => {
    if (disposed || frame === page.mainFrame() || frame.isDetached()) return
    const session = await context.newCDPSession(frame).catch(() => null) // in its parent's process: covered there
    if (!session) return
    const { targetInfo } = await session.send('Target.getTargetInfo').catch(() => ({ targetInfo: null }))
    if (!targetInfo || knownTargets.has(targetInfo.targetId) || disposed) {
      await session.detach().catch(() => undefined)
      return
    }
    knownTargets.add(targetInfo.targetId)
    const job = install(session, targetInfo.targetId).catch(() => {
      knownTargets.delete(targetInfo.targetId)
      installs.delete(targetInfo.targetId)
    })
    installs.set(targetInfo.targetId, job)
    await job
  }
  const attaching = new Set<Promise<void>>()
  const onFrame = (frame: Frame) => {
    const job = attachFrame(frame).catch(() => undefined)
    attaching.add(job)
    void job.finally(() => attaching.delete(job))
  }

  /**
   * A child target auto-attached to one of the world's sessions (`Target.setAutoAttach`, `waitForDebuggerOnStart`):
   * a frame of another site, paused before its document loads. The world is installed in the frame's own session (the
   * one Playwright gives for its `Frame`, found once Playwright has attached it too), and only then does the frame go
   * on, so the world's script runs at its document's start, before any of the frame's own. Whatever happens, the
   * frame is let go within a few seconds: a recording never keeps a frame from loading.
   */
  const holdUntilInstalled = async (
    session: CDPSession,
    event: { sessionId: string; targetInfo: { targetId: string; type: string }; waitingForDebugger: boolean },
  ) => {
    const { sessionId, targetInfo } = event
    try {
      if (!event.waitingForDebugger || targetInfo.type !== 'iframe' || disposed) return
      for (let tries = 0; tries < 100 && !disposed && !installs.has(targetInfo.targetId); tries++) {
        for (const frame of page.frames()) await attachFrame(frame).catch(() => undefined)
        if (!installs.has(targetInfo.targetId)) await new Promise((done) => setTimeout(done, 20))
      }
      await installs.get(targetInfo.targetId)
    } finally {
      // (a session attached to it in the old way, by messages: Playwright's sessions know of no session of ours)
      const resume = JSON.stringify({ id: 1, method: 'Runtime.runIfWaitingForDebugger' })
      await session.send('Target.sendMessageToTarget', { sessionId, message: resume }).catch(() => undefined)
      await session.send('Target.detachFromTarget', { sessionId }).catch(() => undefined)
    }
  }

  const { frameTree } = await main.send('Page.getFrameTree')
  const mainFrameId = frameTree.frame.id
  knownTargets.add(mainFrameId)
  await install(main, null)
  page.on('frameattached', onFrame)
  page.on('framenavigated', onFrame)
  for (const frame of page.frames()) await attachFrame(frame).catch(() => undefined)

  /** The parent of a frame, from the frame tree of the session that holds it; null at that session's root. */
  const parentOf = async (frame: WorldFrame): Promise<string | null> => {
    const { frameTree: tree } = await frame.session.send('Page.getFrameTree')
    type Tree = typeof tree
    const stack: Tree[] = [tree]
    while (stack.length > 0) {
      const node = stack.pop()!
      if (node.frame.id === frame.frameId) return node.frame.parentId ?? null
      stack.push(...(node.childFrames ?? []))
    }
    return null
  }

  /** Origin and frame path of a frame's viewport in the top-level one (see `placeFrame`). */
  const geometryOf = async (
    frameId: string,
    depth = 0,
  ): Promise<{ origin: { x: number; y: number }; framePath: string[] | null } | null> => {
    if (frameId === mainFrameId) return { origin: { x: 0, y: 0 }, framePath: [] }
    if (depth > 16) return null
    for (const [session, { targetId }] of sessions) {
      let root: DomNode
      try {
        root = (await session.send('DOM.getDocument', { depth: -1, pierce: true })).root as DomNode
      } catch {
        continue
      }
      const owner = findFrameOwner(root, frameId)
      if (!owner) continue
      const rootGeometry =
        targetId === null ? { origin: { x: 0, y: 0 }, framePath: [] } : await geometryOf(targetId, depth + 1)
      if (!rootGeometry) return null
      const placed = await placeInDocument(session, owner.backendNodeId).catch(() => null)
      if (!placed) return null
      return {
        origin: {
          x: rootGeometry.origin.x + placed.contentOrigin.x,
          y: rootGeometry.origin.y + placed.contentOrigin.y,
        },
        framePath: rootGeometry.framePath && placed.framePath ? [...rootGeometry.framePath, ...placed.framePath] : null,
      }
    }
    return null
  }

  const world: RecorderWorld = {
    mainFrameId,
    isMainFrame: (frame) => frame.frameId === mainFrameId,
    frames() {
      const all = [...byFrame.values()]
      return [...all.filter((f) => f.frameId === mainFrameId), ...all.filter((f) => f.frameId !== mainFrameId)]
    },
    topFrame: () => byFrame.get(mainFrameId),
    async evaluate(frame, fn, arg) {
      const { result, exceptionDetails } = await frame.session.send('Runtime.evaluate', {
        expression: `(${fn.toString()})(${JSON.stringify(arg) ?? 'undefined'})`,
        contextId: frame.contextId,
        returnByValue: true,
        awaitPromise: true,
      })
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text)
      return result.value
    },
    async placeFrame(frame, hops) {
      let frameId: string | null = frame.frameId
      for (let k = 0; k < hops && frameId; k++)
        frameId = frameId === frame.frameId ? await parentOf(frame) : await parentOf({ ...frame, frameId })
      return frameId ? geometryOf(frameId) : null
    },
    async dispose() {
      disposed = true
      page.off('frameattached', onFrame)
      page.off('framenavigated', onFrame)
      await Promise.all([...attaching])
      if (worlds.get(page) === world) worlds.delete(page)
      for (const [session, { scriptId }] of sessions) {
        if (scriptId)
          await session
            .send('Page.removeScriptToEvaluateOnNewDocument', { identifier: scriptId })
            .catch(() => undefined)
        await session.send('Runtime.removeBinding', { name: opts.bindingName }).catch(() => undefined)
        await session.detach().catch(() => undefined)
      }
      sessions.clear()
      byFrame.clear()
    },
  }
  worlds.set(page, world)
  return world
}

/**
 * Runs `fn(arg)` in the recorder's world of a page's top frame (the toolbar's functions, what the reporter noted);
 * rejects when the page records with no world now (a navigation in between, or not recording).
 */
export async function evaluateInRecorderTop<A, R>(page: Page, fn: (arg: A) => R, arg: A): Promise<Awaited<R>> {
  const world = recorderWorldOf(page)
  const top = world?.topFrame()
  if (!world || !top) throw new Error('the page has no recorder world now')
  return world.evaluate(top, fn, arg)
}
