import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { AssertPickKind } from '@qa/matcher'
import { type Action, describeAssertion, isClickLike, normalizeAssertedText } from '@qa/model'
import type { Page } from 'playwright-core'
import type { CapturedElement } from '../browser/cdp-identity'
import { type AnsweredDialog, watchDialogs } from '../browser/cdp-dialogs'
import { type FrameBuffer, startFrameBuffer } from '../browser/cdp-frame-buffer'
import {
  createRecorderWorld,
  evaluateInRecorderTop,
  type RecorderWorld,
  type WorldFrame,
} from '../browser/cdp-recorder-world'
import type { ViewportBox } from '../browser/cdp-secret-fields'
import { settle } from '../browser/settle'
import {
  markToolbarPickedInPage,
  openToolbarEditorInPage,
  readToolbarEditorInPage,
  removeRecorderToolbarInPage,
  setToolbarFrameStateInPage,
  showToolbarHighlightInPage,
  signalToolbarInPage,
  TOOLBAR_BINDING,
  TOOLBAR_TAG,
  type ToolbarFrameState,
  type ToolbarRequest,
} from '../injected/recorder-toolbar'
import { recorderWorldSource } from '../injected/recorder-world'
import {
  dialogOwner,
  historyKeysBefore,
  historyStep,
  masksAround,
  nextInput,
  type ReachedInput,
  reachedInput,
} from './hand-events'
import { activationMove, historyMove, historyOf, navigationActivationInPage } from './history-move'
import { INPUT_TIMES_KEY, type PageInputEvent, type PointerDownSnapshot, RECORD_BINDING } from './page-input-event'
import { type FramePlacer, placeFrameEvent, pointInTopViewport } from './place-frame-event'
import { assertionTargetLabel, assertPickHighlight, captureAssertion } from './record-assertion'
import type { ListenOptions, RecorderCore } from './recorder-core'
import { createHandStepHandler } from './hand-steps'
import type { OpenTyping } from './hand-events'
import { setShot, type Shot } from './step-shots'

/**
 * Records what a person does in the page until `stop()` (`WebRecorder.listen`): the input reporter and the toolbar in
 * the recorder's world of every frame, each reported input made a step (`hand-events.ts` decides which), with its
 * element read over CDP and its screenshots from the moments around it.
 */
export async function listenByHand(
  core: RecorderCore,
  listenOpts: ListenOptions = {},
): Promise<{ stop(): Promise<void> }> {
  const { actions, caseDir, screenshots, readerFor, shot, shotWithBytes, frameShot, crop, switchTo } = core
  let queue: Promise<unknown> = Promise.resolve()
  let stopped = false
  const pushStep = (action: Action, replaced = false) => {
    actions.push(action)
    listenOpts.onStep?.({ index: actions.length - 1, action, replaced })
  }
  const attached: Page[] = []
  /** Each attached page's recorder world: where the reporter and the toolbar live, out of the page's reach. */
  const worlds = new Map<Page, RecorderWorld>()
  // names of this recording's own (the page can see neither: they exist in the recorder's world only)
  const nonce = randomUUID().replaceAll('-', '')
  const worldName = `qa-recorder-${nonce}`
  const bindingName = `__qaRecorder_${nonce}`
  /** The toolbar's assert mode and editor, as its top frame last said: frames that load meanwhile get it. */
  let toolbarState: ToolbarFrameState = { mode: null, editing: false }
  /** Each attached page's recent frames, for before-screenshots from before the pointer went down. */
  const buffers = new Map<Page, FrameBuffer>()
  /** When each click was pressed (its pointer-down's time), to give it the dialog it opened. */
  const pressedAt = new Map<Action, number>()
  /** Pointer-down times as they arrive (before the queue handles them): a dialog belongs to the last before it. */
  const downs: number[] = []
  /** Each pointer-down's time as the page sent it → as stamped on arrival (a drag names its pointer-down so). */
  const pageDownAt = new Map<number, number>()
  /** What the page described at each click's pointer-down (a drag's source, when its click found no control). */
  const downSnapshots = new Map<Action, PointerDownSnapshot>()
  const dialogs: AnsweredDialog[] = []
  const dialogWatches: { dispose(): Promise<void> }[] = []
  /**
   * Every input as it reached the page (its own time stamp, ms since the epoch), in order of arrival; `field`
   * names the field of typing. A step's after-screenshot is from before the next of them.
   */
  const inputs: ReachedInput[] = []
  /** The secrets' boxes at the inputs around `atMs` (`masksAround`). */
  const masksAt = (atMs: number): ViewportBox[] => masksAround(inputs, atMs)
  /** When the first input after `atMs` reached the page: reported, or as the page noted it (not reported yet). */
  const nextInputAt = async (atMs: number): Promise<number | undefined> => {
    const noted = await evaluateInRecorderTop(
      core.page,
      (key) => (window as unknown as Record<symbol, number[] | undefined>)[Symbol.for(key)] ?? [],
      INPUT_TIMES_KEY,
    ).catch((): number[] => [])
    const times = [...noted, ...(nextInput(inputs, atMs) ? [nextInput(inputs, atMs)!.at] : [])].filter((t) => t > atMs)
    return times.length ? Math.min(...times) : undefined
  }
  /**
   * A step's after-screenshot: what the page showed once the step's effect settled, and before the
   * next input reached it; typing right after a click never shows in the click's. A live capture (which hides
   * the toolbar) when no input came before it was taken; else the newest screencast frame older than that
   * input.
   */
  const afterShot = async (index: number, stepAt: number | undefined): Promise<Shot | undefined> => {
    if (!screenshots) return undefined
    await settle(core.page, core.quietMs, core.settleTimeoutMs)
    const settledAt = Date.now()
    const frames = buffers.get(core.page)
    const cutoffOf = async () => {
      const next = stepAt === undefined ? undefined : await nextInputAt(stepAt)
      return next !== undefined ? Math.min(next, settledAt) : null
    }
    if ((await cutoffOf()) === null) {
      const live = await shotWithBytes(index, 'after').catch(() => undefined)
      // the page notes an input the moment it reaches it: none since the step, none in this capture
      const cutoff = await cutoffOf()
      if (live && (cutoff === null || !frames)) return live
    }
    const cutoff = (await cutoffOf()) ?? settledAt
    await frames?.arrivedPast(cutoff)
    const frame = frames?.before(cutoff)
    if (!frame) return shotWithBytes(index, 'after')
    return frameShot(index, 'after', frame, masksAt(frame.atMs)).catch(() => shotWithBytes(index, 'after'))
  }
  /** Gives each answered dialog to the click it followed, once that click is a step. */
  const attachDialogs = () => {
    for (const d of dialogs.slice()) {
      const owner = dialogOwner(d.openedAt, downs, actions, (a) => pressedAt.get(a))
      if (owner === 'drop') {
        dialogs.splice(dialogs.indexOf(d), 1)
        continue
      }
      if (owner === 'wait') continue
      owner.dialog = d.answer
      dialogs.splice(dialogs.indexOf(d), 1)
    }
  }
  /** The typing step still open: more input into the same field goes on in it. */
  const open: { typing: OpenTyping | null } = { typing: null }
  const handle = createHandStepHandler({
    core,
    buffers,
    pressedAt,
    pageDownAt,
    downSnapshots,
    inputs,
    masksAt,
    afterShot,
    attachDialogs,
    pushStep,
    open,
    ...(listenOpts.onStep ? { onStep: listenOpts.onStep } : {}),
  })
  const enqueue = (job: () => Promise<unknown>) => {
    queue = queue.then(job).catch(() => undefined)
  }
  /** Text and value assertions picked with the toolbar, waiting for the person to confirm them in its editor. */
  const drafts = new Map<number, { action: Action; index: number; target: Page }>()
  let draftIds = 0
  /**
   * An assertion picked with the toolbar (the page never saw the click): the element at the point, captured like
   * a click's target, with its text or value as it is now for `expected`. A visible assertion is a step at once;
   * a text or value one opens the toolbar's editor with that text or value, and is a step once confirmed there.
   */
  /**
   * The element of an assert pick, read at once, while the page still is as the person saw it: the queue may
   * get to the pick only after what the person did next (a dialog closed by the next click).
   */
  const readPick = (request: Extract<ToolbarRequest, { kind: 'assert' }>) =>
    readerFor()
      .then((r) => r.assertPickAt(request.x, request.y, request.assert as AssertPickKind))
      .catch(() => null)
  const pickedAssertion = async (
    request: Extract<ToolbarRequest, { kind: 'assert' }>,
    target: Page,
    picked: Promise<CapturedElement | null>,
  ) => {
    open.typing = null
    const index = actions.length
    const before = await shotWithBytes(index, 'before').catch(() => undefined)
    const partial = await captureAssertion(
      core.page,
      await readerFor(),
      { type: 'assert', kind: request.assert, x: request.x, y: request.y },
      { picked },
    ).catch(() => null)
    if (!partial) {
      await removeShots(before?.path)
      await nothingToAssert(request, target)
      return
    }
    const edited = request.assert === 'text' || request.assert === 'value'
    const action: Action = { timestamp: Date.now(), ...partial }
    if (before) {
      action.screenshotBeforePath = before.path
      action.screenshotPath = before.path
      const elementCrop = await crop(index, before, action)
      if (elementCrop) action.elementCropPath = elementCrop
    }
    if (!edited || !action.assertion) {
      pushStep(action)
      return
    }
    const id = ++draftIds
    drafts.set(id, { action, index, target })
    const assertion = action.assertion
    const opened = await evaluateInRecorderTop(target, openToolbarEditorInPage, {
      id,
      assert: request.assert as 'text' | 'value',
      expected: String(assertion.expected ?? ''),
      op: assertion.op === 'contains' ? ('contains' as const) : ('equals' as const),
    }).catch(() => false)
    // no editor to confirm it in (the page went away meanwhile): the assertion is kept as it was read
    if (!opened) confirmDraft(id, null)
  }
  /** The toolbar's editor, waiting for a text or value pick, says there is nothing to assert there. */
  const nothingToAssert = async (request: Extract<ToolbarRequest, { kind: 'assert' }>, target: Page) => {
    if (request.assert === 'text' || request.assert === 'value')
      await evaluateInRecorderTop(target, openToolbarEditorInPage, {
        id: -1,
        error: 'Nothing to assert there',
      }).catch(() => undefined)
  }
  /**
   * A draft assertion as the person confirmed it in the toolbar (null: as it was read). `unconfirmed`: the
   * recording stopped while its editor was open (Ctrl-C, the window closed): it is kept as the editor held it
   * then (`edit`; null: the editor could not be read, as it was read), with a warning that says so.
   */
  const confirmDraft = (
    id: number,
    edit: { op: 'equals' | 'contains'; expected: string } | null,
    unconfirmed = false,
  ) => {
    const draft = drafts.get(id)
    if (!draft) return
    drafts.delete(id)
    const { action } = draft
    const assertion = action.assertion
    if (edit && assertion) {
      assertion.expected = assertion.kind === 'text' ? normalizeAssertedText(edit.expected) : edit.expected
      if (edit.op === 'contains') assertion.op = 'contains'
      else delete assertion.op
      action.description = describeAssertion(assertion, assertionTargetLabel(action.identity))
      delete action.warning
    }
    if (unconfirmed)
      action.warning = edit
        ? 'not confirmed: recording stopped while its editor was open; saved as the editor held it then'
        : 'not confirmed: recording stopped while its editor was open; saved with the value read from the page (the editor could not be read)'
    // another step took this draft's screenshot names meanwhile: it keeps none rather than another step's
    if (actions.length !== draft.index) {
      delete action.screenshotBeforePath
      delete action.screenshotPath
      delete action.elementCropPath
    }
    pushStep(action)
  }
  const cancelDraft = async (id: number) => {
    const draft = drafts.get(id)
    if (!draft) return
    drafts.delete(id)
    if (actions.length === draft.index)
      await removeShots(draft.action.screenshotBeforePath, draft.action.elementCropPath)
  }
  const removeShots = async (...paths: (string | null | undefined)[]) => {
    for (const path of paths) if (path) await rm(join(caseDir, path), { force: true })
  }
  /**
   * The assert mode's highlight: the element a pick under the pointer would assert on and the
   * name the assertion will use, drawn by the toolbar. In the queue (a highlight never reads the page while a pick
   * or a step does; hovers come only while an assert mode waits, when no click is recorded), at most one waiting
   * there, for the newest pointer place.
   */
  let hoverNext: {
    request: Extract<ToolbarRequest, { kind: 'hover' }>
    placeFrame: FramePlacer
    target: Page
  } | null = null
  let hoverQueued = false
  const highlightPick = (
    request: Extract<ToolbarRequest, { kind: 'hover' }>,
    placeFrame: FramePlacer,
    target: Page,
  ) => {
    hoverNext = { request, placeFrame, target }
    if (hoverQueued) return
    hoverQueued = true
    enqueue(async () => {
      hoverQueued = false
      const next = hoverNext
      hoverNext = null
      if (!next || stopped) return
      const { request: r } = next
      const point =
        r.inFrame === undefined ? r : await pointInTopViewport(r, next.placeFrame, r.inFrame).catch(() => null)
      const highlight = point ? await assertPickHighlight(await readerFor(), r.assert, point.x, point.y) : null
      await evaluateInRecorderTop(
        next.target,
        showToolbarHighlightInPage,
        highlight ? { assert: r.assert, ...highlight } : null,
      ).catch(() => undefined)
    })
  }
  /** Pages a step opened whose input is reported already, before the queue gets to the switch into them. */
  const opening = new Set<Page>()
  /** Reports a page's input, and moves the recording into a page it opens (after the click that opened it). */
  const attach = async (target: Page) => {
    /** An input a frame's world reported: the recorder's own binding, in the recorder's world only. */
    const onInput = (frame: WorldFrame, world: RecorderWorld, event: PageInputEvent) => {
      // a page being opened reports from its first moments: its input waits in the queue behind the switch
      if (stopped || (target !== core.page && !opening.has(target))) return
      if (!event || typeof event !== 'object' || typeof event.kind !== 'string') return
      if (event.kind === 'pointerdown') {
        // stamped on arrival, so that a dialog the click opens finds it before the queue reaches it
        const pageAt = event.at
        event.at = Math.min(event.at ?? Date.now(), Date.now())
        if (pageAt !== undefined) pageDownAt.set(pageAt, event.at)
        downs.push(event.at)
      }
      const receivedAt = Date.now()
      event.receivedAt = receivedAt
      // an input that reaches the page ends the moment of the step before it: its frame before is kept
      const reached = reachedInput({ ...event, receivedAt })
      if (reached) {
        inputs.push(reached)
        buffers.get(target)?.pin(reached.at)
      }
      // an event from below a cross-origin parent is placed in the top viewport first (in order, in the queue)
      if (event.inFrame !== undefined)
        enqueue(async () => handle(await placeFrameEvent(event, (hops) => world.placeFrame(frame, hops))))
      else enqueue(() => handle(event))
    }
    const onStopRequest = listenOpts.onStopRequest
    /** A request of the toolbar (top frame) or of its listening part (a frame below). */
    const onToolbar = (frame: WorldFrame, world: RecorderWorld, request: ToolbarRequest) => {
      if (stopped || !onStopRequest || !request || typeof request !== 'object') return
      const placeFrame: FramePlacer = (hops) => world.placeFrame(frame, hops)
      if (request.kind === 'stop') onStopRequest()
      else if (request.kind === 'frames-state') {
        // the top frame's assert mode and editor: every frame below picks and waits as it does
        if (!world.isMainFrame(frame)) return
        toolbarState = { mode: request.mode ?? null, editing: request.editing === true }
        for (const below of world.frames())
          if (!world.isMainFrame(below))
            void world.evaluate(below, setToolbarFrameStateInPage, toolbarState).catch(() => undefined)
      } else if (request.kind === 'frame-signal') {
        const top = world.topFrame()
        if (top && !world.isMainFrame(frame))
          void world.evaluate(top, signalToolbarInPage, request.signal).catch(() => undefined)
      } else if (request.kind === 'hover' && target === core.page) highlightPick(request, placeFrame, target)
      else if (request.kind === 'assert' && target === core.page) {
        // the pick ends its mode: a highlight still to draw is dropped
        hoverNext = null
        if (world.isMainFrame(frame)) {
          const picked = readPick(request)
          enqueue(() => pickedAssertion(request, target, picked))
        } else {
          // a pick in a frame below: the toolbar (in the top frame) ends its mode and waits for the editor now,
          // before the queue gets to the pick
          void evaluateInRecorderTop(target, markToolbarPickedInPage, request.assert).catch(() => undefined)
          // the point moved into the top viewport and the element there read at once, as in the top frame
          const placed = (
            request.inFrame === undefined
              ? Promise.resolve(request)
              : pointInTopViewport(request, placeFrame, request.inFrame)
          )
            .then((point) => (point ? { ...request, x: point.x, y: point.y } : null))
            .catch(() => null)
          const picked = placed.then((inTop) => (inTop ? readPick(inTop) : null))
          enqueue(async () => {
            const inTop = await placed
            if (inTop) await pickedAssertion(inTop, target, picked)
            else await nothingToAssert(request, target)
          })
        }
      } else if (request.kind === 'assert-confirm')
        enqueue(async () =>
          confirmDraft(request.id, {
            op: request.op === 'contains' ? 'contains' : 'equals',
            expected: String(request.expected ?? ''),
          }),
        )
      else if (request.kind === 'assert-cancel') enqueue(() => cancelDraft(request.id))
    }
    // (the world reports while it is being installed: its calls wait for it)
    let created: RecorderWorld | undefined
    /** A new document of the top frame (set once the page is attached: the document there then is not one). */
    let onMainDocument: ((frame: WorldFrame, world: RecorderWorld) => void) | null = null
    const ready = createRecorderWorld(target, {
      source: recorderWorldSource(bindingName, {
        input: RECORD_BINDING,
        toolbar: onStopRequest !== undefined ? { binding: TOOLBAR_BINDING, tag: TOOLBAR_TAG } : null,
      }),
      worldName,
      bindingName,
      onCall(frame, payload) {
        const { channel, message } = (payload ?? {}) as { channel?: string; message?: unknown }
        const dispatch = (world: RecorderWorld) => {
          if (channel === 'input') onInput(frame, world, message as PageInputEvent)
          else if (channel === 'toolbar') onToolbar(frame, world, message as ToolbarRequest)
        }
        if (created) dispatch(created)
        else void ready.then(dispatch, () => undefined)
      },
      onFrame(frame) {
        void ready.then(
          (world) => {
            if (world.isMainFrame(frame)) onMainDocument?.(frame, world)
          },
          () => undefined,
        )
        // a frame that loads while an assert mode or the editor is on picks and waits as the others do
        if (!onStopRequest || (!toolbarState.mode && !toolbarState.editing)) return
        void ready.then(
          (world) =>
            world.isMainFrame(frame) ? undefined : world.evaluate(frame, setToolbarFrameStateInPage, toolbarState),
          () => undefined,
        )
      },
    })
    created = await ready
    worlds.set(target, created)
    dialogWatches.push(
      await watchDialogs(target, (d) => {
        dialogs.push(d)
        attachDialogs()
      }),
    )
    attached.push(target)
    if (screenshots) {
      const frames = await startFrameBuffer(target)
      if (frames) buffers.set(target, frames)
    }
    // Back and forward (the browser's buttons, Alt+Left): each new document of the top frame tells how it was
    // reached (`history-move.ts`); a move is recorded as a navigate to the URL it reached (a replay goes there).
    let history = await historyOf(target)
    onMainDocument = (frame, world) => {
      if (stopped || target !== core.page) return
      // read at once, in the world of that very document: the person may go on before the queue gets here
      const arrivedAt = Date.now()
      const activation = world.evaluate(frame, navigationActivationInPage, undefined).catch(() => null)
      const reading = historyOf(target)
      enqueue(async () => {
        const [told, now] = await Promise.all([activation, reading])
        const fromDocument = told ? activationMove(told) : 'unknown'
        const moved = fromDocument === 'unknown' ? (now && history ? historyMove(history, now) : null) : fromDocument
        history = now ?? history
        if (!moved) return
        open.typing = null
        const url = told?.url ?? target.url()
        const action: Action = { timestamp: Date.now(), ...historyStep(moved, url) }
        // the keys that went back (Alt+Left) were recorded as a key press: the navigate takes its place
        const byKeys = historyKeysBefore(actions.at(-1))
        if (byKeys) actions.pop()
        pushStep(action, byKeys)
        setShot(action, 'after', await afterShot(actions.indexOf(action), arrivedAt))
      })
    }
    target.on('popup', (opened) => {
      if (stopped || target !== core.page) return
      // listen at once, not when the queue reaches the switch: a person clicks in the new page while the
      // opener's step is still being written, and that click must not be lost
      opening.add(opened)
      const listening = attach(opened).catch(() => undefined)
      enqueue(async () => {
        const opener = actions.at(-1)
        open.typing = null
        await switchTo(opened)
        opening.delete(opened)
        await listening
        if (opener && isClickLike(opener)) {
          opener.opensPage = true
          opener.description = `${opener.description} (opens a new page)`
          const after = await shot(actions.indexOf(opener), 'after')
          if (after) opener.screenshotPath = after
        }
      })
    })
  }
  await attach(core.page)
  // Fill in the final screenshots of typed fields when they are done.
  return {
    async stop() {
      stopped = true
      await queue
      // Stopped while the toolbar's editor was open (its Stop button, Ctrl-C, the window closed, the browser
      // gone): the assertion is kept as the editor holds it, never dropped silently; its warning (in the live
      // list of steps) says it was not confirmed.
      for (const [id, draft] of [...drafts]) {
        const held = draft.target.isClosed()
          ? null
          : await evaluateInRecorderTop(draft.target, readToolbarEditorInPage, undefined).catch(() => null)
        const edit = held && held.id === id ? { op: held.op, expected: String(held.expected ?? '') } : null
        confirmDraft(id, edit, true)
      }
      for (const frames of buffers.values()) await frames.stop()
      buffers.clear()
      attachDialogs()
      for (const w of dialogWatches.splice(0)) await w.dispose()
      if (listenOpts.onStopRequest)
        for (const p of attached)
          if (!p.isClosed()) {
            await evaluateInRecorderTop(p, removeRecorderToolbarInPage, undefined).catch(() => undefined)
            const world = worlds.get(p)
            for (const below of world?.frames() ?? [])
              if (!world?.isMainFrame(below))
                await world
                  ?.evaluate(below, setToolbarFrameStateInPage, { mode: null, editing: false })
                  .catch(() => undefined)
          }
      // the recorder's world goes with the recording: no binding, no script in the documents to come
      for (const world of worlds.values()) await world.dispose().catch(() => undefined)
      worlds.clear()
    },
  }
}
