import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type Action,
  CURRENT_FORMAT_VERSION,
  type DesktopWindow,
  type ScreenInfo,
  type ScreenTransition,
  type TestCase,
  isClickLike,
} from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import { averageHash, differenceHash, hammingDistance, TRUSTED_LABEL_SCORE } from '@qa/vision'
import { type BackgroundQueue, createBackgroundQueue } from './background-queue'
import { type CoalesceOptions, createActionCoalescer, type RawAction } from './coalesce-actions'
import { createAnimationLearner } from './animated-regions'
import { DesktopError } from './errors'
import { screenTransitionOf } from './regional-transition'
import { boxAround, cropFrame, encodePng, framesEqual, type RgbaFrame } from './frame'
import { createFrameRing, ringCapacityFor, type TimedFrame } from './frame-ring'
import { type InputEvent, nowMs } from './input-event'
import {
  ANIMATION_LOOKBACK_MS,
  afterFrameReady,
  describeRawAction,
  type PointerAt,
  pointerArrivalMs,
} from './recorder-moments'
import type { InputSource, ScreenCapture } from './ports'
import { acceptsInput, assertRecorderTransition, type RecorderState } from './recorder-state'
import { clickChangedOnlyItsLabel, type ElementAnalyzer, rowLabelOfToggle } from './semantic-info'
import { readClickLabel } from './third-read'

export interface DesktopRecorderOptions {
  input: InputSource
  screen: ScreenCapture
  /** Folder of the case file; screenshots go to `<outDir>/<screenshotsDir>`, stored relative to outDir. */
  outDir: string
  screenshotsDir?: string
  name?: string
  /** Screen grab interval of the frame ring buffer (default 100 ms). */
  frameIntervalMs?: number
  /** How much history the ring keeps (default 2000 ms; bounded memory). */
  bufferWindowMs?: number
  /** Wait after an action before its after-screenshot (default 500 ms). */
  settleMs?: number
  /**
   * After `settleMs`, the after-screenshot waits until the screen has been still this long (default 400 ms): a
   * toolkit that draws late (a game board after the new-game screen, a popover, a drop-down list on a loaded
   * machine) is recorded as it ended up, as replay sees it once the screen settled. 0: the first frame after
   * `settleMs`.
   */
  quietMs?: number
  /** The longest wait for a still screen after `settleMs` (default 2500 ms; an animation never stills). */
  settleCapMs?: number
  /** Size of the element crop around a click, for the fast path and template matching (default 96×40). */
  cropWidth?: number
  cropHeight?: number
  /** Semantic analysis per click, in a background queue; null/absent → `enrichment_status: pending`. */
  analyzer?: ElementAnalyzer | null
  coalesce?: CoalesceOptions
  /** Store typed text masked (`secret_env` names the variable to fill it from on replay). */
  maskTyping?: boolean
  onProgress?: (progress: RecorderProgress) => void
  /** Called once per recorded action (after its screenshots are saved). */
  onAction?: (action: Action, index: number) => void
  /**
   * The program window under a point (`WindowLocator.windowAt`), asked where the pointer comes to rest and at each
   * mouse press — before a button that closes its window takes effect: a click step records it as `window` (the one
   * under the pointer resting at the press point, else the one at the press: a menu or a drop-down's list closes
   * at the click, often before the press is asked about), and replay maps the point through it.
   */
  windowAt?: ((x: number, y: number) => Promise<DesktopWindow | null>) | null
  /**
   * The program window holding the keyboard focus (`WindowLocator.focused`), asked at each key press: a key step
   * records it as `window`, and replay judges the step where that window is now (moved).
   */
  focusedWindow?: (() => Promise<DesktopWindow | null>) | null
}

export interface RecorderProgress {
  state: RecorderState
  actions: number
  /** Actions whose screenshots are not written yet. */
  capturing: number
  analyzed: number
  toAnalyze: number
  frames: number
}

export interface DesktopRecorder {
  readonly state: RecorderState
  start(): Promise<void>
  /** Stops (like the hotkey), waits for screenshots and analyses, returns the case (not saved). */
  stop(): Promise<TestCase>
  /** Resolves when the stop hotkey was pressed (or stop() was called). */
  readonly stopped: Promise<'hotkey' | 'stop'>
  progress(): RecorderProgress
  /** Hook events seen so far (for diagnostics and the no-loss test). */
  readonly eventCount: number
}

interface Pending {
  raw: RawAction
  before: TimedFrame | null
  /**
   * The newest frame from before the pointer came near the click: a person rests on a button
   * before clicking and the toolkit draws it highlighted; the element crop is cut from this frame so it shows
   * the element as the replay, with the pointer elsewhere, sees it. Null when no such frame is known.
   */
  unhovered: TimedFrame | null
  /** When the next action began (its first event), once it has; its after-frame is taken before that. */
  nextInputMs: number | null
  /** Resolved with the newest frame before the next action began, when it begins. */
  nextInput: Promise<TimedFrame | null>
  reachedNextInput: (frame: TimedFrame | null) => void
  /** The window under the press, asked when the press happened (a click-like step). */
  window: Promise<DesktopWindow | null> | null
  done: Promise<Action>
}

/** A pointer still this long (80 ms) has come to rest: the window under it is asked then (see `windowAt`). */
const HOVER_WINDOW_REST_MS = 80

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * The desktop recorder: a frame ring buffer grabs the screen continuously; each click gets the newest
 * frame older than it as its before-screenshot, an element crop, an after-screenshot once the screen had
 * `settleMs`, perceptual hashes and a screen transition; semantic analysis runs in a background queue and never
 * blocks capture. The hook callback only coalesces events: no input event waits for IO.
 */
export function createDesktopRecorder(opts: DesktopRecorderOptions): DesktopRecorder {
  const intervalMs = opts.frameIntervalMs ?? 100
  const settleMs = opts.settleMs ?? 500
  const quietMs = opts.quietMs ?? 400
  const settleCapMs = opts.settleCapMs ?? 2500
  const cropW = opts.cropWidth ?? 96
  const cropH = opts.cropHeight ?? 40
  if (!(settleMs >= 0)) throw new DesktopError('DESKTOP_BAD_OPTION', `settleMs: expected ≥ 0, got ${settleMs}.`)
  if (!(quietMs >= 0)) throw new DesktopError('DESKTOP_BAD_OPTION', `quietMs: expected ≥ 0, got ${quietMs}.`)
  if (!(settleCapMs >= 0))
    throw new DesktopError('DESKTOP_BAD_OPTION', `settleCapMs: expected ≥ 0, got ${settleCapMs}.`)
  const ring = createFrameRing({
    capacity: ringCapacityFor(Math.max(opts.bufferWindowMs ?? 2000, settleMs + 4 * intervalMs), intervalMs),
  })
  const coalescer = createActionCoalescer(opts.coalesce)
  const shotsDir = opts.screenshotsDir ?? 'screenshots'
  let state: RecorderState = 'idle'
  let events = 0
  let frames = 0
  let grabError: unknown = null
  let grabTimer: NodeJS.Timeout | undefined
  let grabOn = false
  let grabbing: Promise<void> | null = null
  let screenInfo: ScreenInfo | null = null
  const startedAt = new Date()
  const pending: Pending[] = []
  let capturing = 0
  let analyzed = 0
  let toAnalyze = 0
  let resolveStopped!: (why: 'hotkey' | 'stop') => void
  const stopped = new Promise<'hotkey' | 'stop'>((r) => {
    resolveStopped = r
  })
  /** Waiters for a frame satisfying a predicate (evaluated on each new frame). */
  let frameWaiters: { test: (f: TimedFrame) => boolean; resolve: (f: TimedFrame) => void }[] = []
  const savedFrames = new Map<number, Promise<{ path: string; png: Uint8Array; aHash: string; dHash: string }>>()
  const queue: BackgroundQueue = createBackgroundQueue((done, total) => {
    analyzed = done
    toAnalyze = total
    report()
  })
  let actionSeq = 0

  const progress = (): RecorderProgress => ({ state, actions: pending.length, capturing, analyzed, toAnalyze, frames })
  const report = () => opts.onProgress?.(progress())

  /** When the screen last changed: the capture time of the first frame of the current run of identical frames. */
  let stillSinceMs = Number.NEGATIVE_INFINITY
  /** When the hook last reported an input event (a move, a press, a key). */
  let lastInputMs = Number.NEGATIVE_INFINITY
  const animation = createAnimationLearner()
  const onFrame = (f: TimedFrame) => {
    const waiting = frameWaiters
    frameWaiters = []
    for (const w of waiting) w.test(f) ? w.resolve(f) : frameWaiters.push(w)
  }
  const grabOnce = async () => {
    try {
      // with a timed capture (a worker), a frame counts from when its grab ended; else from when it arrived
      const timed = (opts.screen as { captureTimed?: () => Promise<{ frame: RgbaFrame; endMs: number }> }).captureTimed
      const got = timed ? await timed() : { frame: await opts.screen.capture(), endMs: nowMs() }
      const previous = ring.latest()
      const f = ring.push(got.frame, got.endMs)
      if (!previous) stillSinceMs = f.timeMs
      else if (!framesEqual(previous.frame, f.frame)) {
        // what changed with nobody doing anything between the two grabs is the program's own animation (or drawing)
        const tiles = animation.observe(previous.frame, f.frame, f.timeMs, lastInputMs < previous.timeMs)
        // a screen whose only changes are its known animation is still: the after-frame need not wait for the cap
        const animated = animation.animatedTiles(f.timeMs - ANIMATION_LOOKBACK_MS, f.timeMs)
        if (tiles.some((t) => !animated.has(t))) stillSinceMs = f.timeMs
      }
      frames++
      onFrame(f)
    } catch (error) {
      grabError = error
    }
  }
  const loop = () => {
    const t0 = performance.now()
    grabbing = grabOnce().finally(() => {
      grabbing = null
      if (grabOn) grabTimer = setTimeout(loop, Math.max(0, intervalMs - (performance.now() - t0)))
    })
  }
  /** The first frame passing `test`; after `timeoutMs` without one (capture stalled), the latest frame. */
  const waitFrame = (test: (f: TimedFrame) => boolean, timeoutMs = settleMs + 10_000): Promise<TimedFrame> => {
    const latest = ring.latest()
    if (latest && test(latest)) return Promise.resolve(latest)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        frameWaiters = frameWaiters.filter((w) => w.resolve !== done)
        const l = ring.latest()
        if (l) resolve(l)
        else
          reject(
            new DesktopError('DESKTOP_CAPTURE_FAILED', 'No screen frame could be captured while recording.', {
              hint: 'Check DISPLAY and that the X server allows XGetImage.',
              cause: grabError,
            }),
          )
      }, timeoutMs)
      const done = (f: TimedFrame) => {
        clearTimeout(timer)
        resolve(f)
      }
      frameWaiters.push({ test, resolve: done })
    })
  }

  const saveFrame = (tf: TimedFrame, name: string) => {
    let p = savedFrames.get(tf.seq)
    if (!p) {
      p = (async () => {
        const png = await encodePng(tf.frame)
        const rel = `${shotsDir}/${name}`
        await writeFileAtomic(join(opts.outDir, rel), png, { overwrite: true })
        const [aHash, dHash] = await Promise.all([averageHash(tf.frame), differenceHash(tf.frame)])
        return { path: rel, png, aHash, dHash }
      })()
      savedFrames.set(tf.seq, p)
    }
    return p
  }

  const processAction = async (p: Pending): Promise<Action> => {
    const raw = p.raw
    const n = String(actionSeq++).padStart(4, '0')
    capturing++
    try {
      const masked = raw.actionType === 'type' && opts.maskTyping === true
      // the after frame: the first one captured `settleMs` after the action's last event (re-read: a click may
      // become a double click, typing may go on) on a screen still for `quietMs` (late drawing is part of the
      // effect), or the first after the cap — but at the latest the newest frame before the next action began: a
      // quick next click must not be in this one's after-frame
      // keys and typing: a frame still identical to the one before the first key is not their after-frame before
      // the cap or the next action (a game under load draws its answer to a key late, after a still moment)
      const keyBefore = raw.actionType === 'type' || raw.actionType === 'key_press' ? p.before : null
      const settled = waitFrame(
        (f) =>
          afterFrameReady(f.timeMs, stillSinceMs, {
            endMs: raw.endTimeMs,
            settleMs,
            quietMs,
            capMs: settleCapMs,
            sameAsBefore: keyBefore !== null && (f.seq === keyBefore.seq || framesEqual(f.frame, keyBefore.frame)),
          }) && f.timeMs < (p.nextInputMs ?? Infinity),
        settleMs + settleCapMs + 10_000,
      )
      const capped = p.nextInput.then((f) => f ?? settled)
      const after = await Promise.race([settled, capped])
      const action: Action = {
        timestamp: iso(raw.timeMs),
        actionType: raw.actionType,
        x: raw.x,
        y: raw.y,
        description: describeRawAction(raw, masked),
      }
      if (raw.button && raw.actionType !== 'type' && raw.actionType !== 'key_press') action.button = raw.button
      if (raw.key) action.key = raw.key
      if (raw.text !== undefined) {
        if (masked) {
          action.text = '*'.repeat(Array.from(raw.text).length)
          action.secretEnv = `QA_SECRET_${n}`
        } else action.text = raw.text
      }
      if (raw.endX !== undefined) action.endX = raw.endX
      if (raw.endY !== undefined) action.endY = raw.endY
      if (raw.scrollDx !== undefined) action.scrollDx = raw.scrollDx
      if (raw.scrollDy !== undefined) action.scrollDy = raw.scrollDy
      if (raw.durationMs !== undefined) action.durationMs = raw.durationMs
      const afterShot = await saveFrame(after, `frame_${String(after.seq).padStart(5, '0')}.png`)
      action.screenshotPath = afterShot.path
      // parts of the screen that kept changing by themselves around this step (the seconds before it up to its
      // after-frame): not evidence of what the step did
      const animated = animation.regionsBetween(raw.timeMs - ANIMATION_LOOKBACK_MS, after.timeMs)
      if (animated.length) action.animatedRegions = animated
      action.uiStateHashAfter = afterShot.aHash
      const pointed = isClickLike(action) || raw.actionType === 'drag' || raw.actionType === 'scroll'
      if (!pointed && p.before) {
        // typing and keys: the screen from before their first key, beside the after-frame, so typing is verified too
        const beforeShot = await saveFrame(p.before, `frame_${String(p.before.seq).padStart(5, '0')}.png`)
        action.screenshotBeforePath = beforeShot.path
        action.uiStateHashBefore = beforeShot.aHash
      }
      if (raw.actionType === 'type' || raw.actionType === 'key_press') {
        // the window the keys went to: replay judges the step where it is now
        const window = await p.window
        if (window) action.window = window
      }
      if (pointed) {
        const before = p.before ?? (await waitFrame(() => true))
        const beforeShot = await saveFrame(before, `frame_${String(before.seq).padStart(5, '0')}.png`)
        action.screenshotBeforePath = beforeShot.path
        action.uiStateHashBefore = beforeShot.aHash
        const diff = hammingDistance(beforeShot.aHash, afterShot.aHash)
        // decided tile by tile: a menu opening on a large screen barely moves the whole-screen hash
        const transition: ScreenTransition = screenTransitionOf(before.frame, after.frame, diff)
        action.screenTransition = transition
        if (isClickLike(action)) {
          const cropSource = p.unhovered ?? before
          const box = boxAround(raw.x, raw.y, cropW, cropH, cropSource.frame)
          const crop: RgbaFrame = cropFrame(cropSource.frame, box)
          const cropRel = `${shotsDir}/action_${n}_crop.png`
          await writeFileAtomic(join(opts.outDir, cropRel), await encodePng(crop), { overwrite: true })
          action.elementCropPath = cropRel
          action.elementCropBox = { x: box.x, y: box.y, width: box.width, height: box.height }
          const window = await p.window
          if (window) action.window = window
          action.enrichmentStatus = 'pending'
          const analyzer = opts.analyzer
          if (analyzer) {
            const unhovered = p.unhovered && p.unhovered.seq !== before.seq ? p.unhovered : null
            queue.push(async () => {
              // both looks: the item at rest, before the pointer came, and as it was pressed (lit up,
              // glowing, recoloured); a label is the clicked item's only when the reads agree, or one of them
              // lies on the click's own line, or a third read of the label's own box agrees with one of them
              let r = await readClickLabel(
                analyzer,
                {
                  pressed: { png: beforeShot.png, frame: before.frame },
                  atRest: unhovered ? { png: await encodePng(unhovered.frame), frame: unhovered.frame } : null,
                },
                raw.x,
                raw.y,
                transition,
              )
              // a toggle's value read as the label, and the click changed only that value: its row's label
              const value = r.semanticInfo?.targetElement
              if (
                value?.text &&
                value.boundingBox &&
                clickChangedOnlyItsLabel(value.boundingBox, before.frame, after.frame)
              ) {
                const row = await rowLabelOfToggle(
                  analyzer,
                  beforeShot.png,
                  raw.y,
                  value.boundingBox,
                  value.text,
                  before.frame,
                  after.frame,
                  transition,
                )
                const rowTarget = row?.semanticInfo?.targetElement
                if (row?.semanticInfo && rowTarget) {
                  rowTarget.description = `the row's label; the click changed its value "${value.text}"`
                  r = row
                }
              }
              if (r.semanticInfo) {
                action.semanticInfo = r.semanticInfo
                const t = r.semanticInfo.targetElement
                // a low-confidence label is kept in semantic_info as such, never shown as what was clicked
                const trusted = typeof t?.confidence !== 'number' || t.confidence >= TRUSTED_LABEL_SCORE
                if (t?.text && trusted)
                  action.description = `${describeRawAction(raw, false).split(' (')[0]} "${t.text}" (${t.type})`
              }
              action.enrichmentStatus = r.status
            })
          }
        }
      }
      return action
    } finally {
      capturing--
      report()
    }
  }

  /** Pointer positions of the last moments (moves and presses), to find when it came near each click. */
  const pointerTrail: PointerAt[] = []
  let lastActionMs = Number.NEGATIVE_INFINITY
  /**
   * The frame for the element crop: the newest before the pointer arrived near the click, if it is newer than
   * the previous action (an older frame could show the screen before that action's effect).
   */
  const unhoveredFrame = (raw: RawAction): TimedFrame | null => {
    if (!['click', 'double_click', 'right_click'].includes(raw.actionType)) return null
    // near: within the crop's own extent around the click, plus a crop's size (a widget reacts to the pointer
    // anywhere on itself, which can be larger than the crop)
    const arrival = pointerArrivalMs(pointerTrail, raw.x, raw.y, raw.timeMs, { halfWidth: cropW, halfHeight: cropH })
    if (arrival === null) return null
    const frame = ring.newestBefore(arrival)
    return frame && frame.timeMs > lastActionMs ? frame : null
  }

  /** The window under each recent press, by the press's time (a click step's time is its press's). */
  const pressWindows = new Map<number, Promise<DesktopWindow | null>>()
  // the window under the pointer where it came to rest (asked once it rested `HOVER_WINDOW_REST_MS`): a menu or a
  // drop-down's list closes at the click, often before the press is asked about, so the window the person saw
  // under the item is the one asked while the pointer rested on it
  let hoverWindow: { x: number; y: number; window: Promise<DesktopWindow | null> } | null = null
  let hoverTimer: ReturnType<typeof setTimeout> | null = null
  const onEvent = (e: InputEvent) => {
    if (!acceptsInput(state)) return
    events++
    lastInputMs = Math.max(lastInputMs, e.timeMs)
    if (e.kind === 'mousemove' || e.kind === 'mousedown') {
      pointerTrail.push({ timeMs: e.timeMs, x: e.x, y: e.y })
      while (pointerTrail.length > 2 && (pointerTrail[0] as PointerAt).timeMs < e.timeMs - 5000) pointerTrail.shift()
    }
    if (e.kind === 'keydown' && opts.focusedWindow) {
      pressWindows.set(
        e.timeMs,
        opts.focusedWindow().catch(() => null),
      )
      for (const t of pressWindows.keys()) if (t < e.timeMs - 10_000) pressWindows.delete(t)
    }
    if (e.kind === 'mousemove' && opts.windowAt) {
      const ask = opts.windowAt
      if (hoverTimer) clearTimeout(hoverTimer)
      hoverWindow = null
      const { x, y } = e
      hoverTimer = setTimeout(() => {
        hoverWindow = { x, y, window: ask(x, y).catch(() => null) }
      }, HOVER_WINDOW_REST_MS)
    }
    if (e.kind === 'mousedown' && opts.windowAt) {
      if (hoverTimer) clearTimeout(hoverTimer)
      const rested = hoverWindow && Math.hypot(hoverWindow.x - e.x, hoverWindow.y - e.y) <= 3 ? hoverWindow : null
      const ask = opts.windowAt
      const atPress = ask(e.x, e.y).catch(() => null)
      pressWindows.set(
        e.timeMs,
        // the window under the resting pointer, else (no rest, or nothing there) the one at the press
        rested ? rested.window.then((w) => w ?? atPress) : atPress,
      )
      for (const t of pressWindows.keys()) if (t < e.timeMs - 10_000) pressWindows.delete(t)
    }
    for (const op of coalescer.push(e)) {
      if (op.op === 'stop') {
        void requestStop('hotkey')
        continue
      }
      if (op.op !== 'append') continue
      // the previous action's after-frame is taken before this one began, at the latest
      const previous = pending[pending.length - 1]
      if (previous && previous.nextInputMs === null) {
        previous.nextInputMs = op.action.timeMs
        previous.reachedNextInput(ring.newestBefore(op.action.timeMs))
      }
      // the before frame is picked now, in the hook callback, before the ring can drop it
      let reachedNextInput: (frame: TimedFrame | null) => void = () => undefined
      const nextInput = new Promise<TimedFrame | null>((resolve) => {
        reachedNextInput = resolve
      })
      const item: Pending = {
        raw: op.action,
        before: ring.newestBefore(op.action.timeMs),
        unhovered: unhoveredFrame(op.action),
        window: pressWindows.get(op.action.timeMs) ?? null,
        nextInputMs: null,
        nextInput,
        reachedNextInput,
        done: Promise.resolve(null as never),
      }
      lastActionMs = Math.max(lastActionMs, op.action.timeMs + (op.action.durationMs ?? 0))
      item.done = processAction(item)
      item.done.then(
        (a) => opts.onAction?.(a, pending.indexOf(item)),
        () => undefined,
      )
      pending.push(item)
    }
    report()
  }

  let stopping: Promise<TestCase> | null = null
  const requestStop = (why: 'hotkey' | 'stop'): Promise<TestCase> => {
    if (stopping) return stopping
    state = assertRecorderTransition(state, 'stop')
    resolveStopped(why)
    report()
    stopping = (async () => {
      if (hoverTimer) clearTimeout(hoverTimer)
      await opts.input.stop()
      coalescer.flush()
      let actions: Action[]
      try {
        actions = await Promise.all(pending.map((p) => p.done))
      } catch (error) {
        state = 'failed'
        grabOn = false
        clearTimeout(grabTimer)
        throw error
      }
      grabOn = false
      clearTimeout(grabTimer)
      await grabbing
      await queue.idle()
      state = assertRecorderTransition(state, 'drained')
      report()
      const tc: TestCase = {
        name: opts.name ?? `desktop_${startedAt.toISOString().replace(/[-:]/g, '').slice(0, 15)}`,
        version: CURRENT_FORMAT_VERSION,
        platform: 'desktop',
        createdAt: startedAt.toISOString(),
        ...(screenInfo ? { screen: screenInfo } : {}),
        actions,
      }
      return tc
    })()
    return stopping
  }

  return {
    get state() {
      return state
    },
    get eventCount() {
      return events
    },
    stopped,
    progress,
    async start() {
      state = assertRecorderTransition(state, 'start')
      await mkdir(join(opts.outDir, shotsDir), { recursive: true })
      try {
        screenInfo = await opts.screen.info()
        await grabOnce()
        if (grabError) throw grabError
      } catch (error) {
        state = 'failed'
        throw error instanceof DesktopError
          ? error
          : new DesktopError('DESKTOP_CAPTURE_FAILED', 'The screen could not be captured when recording started.', {
              hint: 'Check DISPLAY and that the X server allows XGetImage.',
              cause: error,
            })
      }
      grabOn = true
      grabTimer = setTimeout(loop, intervalMs)
      await opts.input.start(onEvent)
      report()
    },
    stop: () => requestStop('stop'),
  }
}
