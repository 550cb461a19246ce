import type { CDPSession, Page } from 'playwright-core'
import sharp, { type OverlayOptions } from 'sharp'
import type { ViewportBox } from './cdp-secret-fields'

/**
 * What the page showed a moment ago (as the desktop recorder's frame ring): frames of CDP's screencast,
 * kept for a while, so that a click's before-screenshot is the newest frame older than its pointer-down, not a
 * capture taken after the page already reacted to it.
 */

/** A frame as the compositor swapped it: PNG bytes, and when it was shown (milliseconds since the epoch). */
export interface BufferedFrame {
  png: Buffer
  atMs: number
}

/** The newest frame shown before `atMs`, or null when every frame is newer (or there is none). */
export function newestFrameBefore<F extends { atMs: number }>(frames: readonly F[], atMs: number): F | null {
  let best: F | null = null
  for (const f of frames) if (f.atMs < atMs && (best === null || f.atMs >= best.atMs)) best = f
  return best
}

/**
 * The frames to keep once `incoming` arrived at `nowMs`: those of the last `keepMs`, at most `maxFrames`, and
 * always the newest older than that window (it is what the page showed since, on a page that did not repaint),
 * and for every pinned time (an input's), the newest frame before it: a step's before- and after-frames are
 * those, however late the recorder gets to them on a page that repaints every frame.
 */
export function pruneFrames<F extends { atMs: number }>(
  frames: readonly F[],
  nowMs: number,
  keepMs: number,
  maxFrames: number,
  pins: readonly number[] = [],
): F[] {
  const sorted = [...frames].sort((a, b) => a.atMs - b.atMs)
  let firstKept = sorted.findIndex((f) => f.atMs >= nowMs - keepMs)
  if (firstKept === -1) firstKept = sorted.length
  const from = Math.max(0, firstKept - 1, sorted.length - Math.max(1, maxFrames))
  const pinned = new Set(pins.map((t) => newestFrameBefore(sorted, t)).filter((f): f is F => f !== null))
  return sorted.filter((f, i) => i >= from || pinned.has(f))
}

export interface FrameBuffer {
  /** The newest frame shown before `atMs` (ms since the epoch), or null. */
  before(atMs: number): BufferedFrame | null
  /** Keeps the newest frame before `atMs` (an input reached the page then) for `pinKeepMs`. */
  pin(atMs: number): void
  /**
   * Resolves once a frame shown at or after `atMs` has arrived (frames arrive in order, a few hundred ms late
   * under load: then every frame before `atMs` is here), or after `timeoutMs` (a page that did not repaint since).
   */
  arrivedPast(atMs: number, timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

export interface FrameBufferOptions {
  /** How long every frame is kept (default 3 s). */
  keepMs?: number
  /** At most this many of those (default 80). */
  maxFrames?: number
  /**
   * How long the frame before a pinned time (an input) is kept (default 30 s: the steps in the recorder's queue
   * may be handled that late).
   */
  pinKeepMs?: number
}

/** Starts the page's screencast (PNG, every frame) and keeps its frames; null when the browser refuses. */
export async function startFrameBuffer(page: Page, opts: FrameBufferOptions = {}): Promise<FrameBuffer | null> {
  const keepMs = opts.keepMs ?? 3_000
  const maxFrames = opts.maxFrames ?? 80
  const pinKeepMs = opts.pinKeepMs ?? 30_000
  let pins: number[] = []
  let newestAt = Number.NEGATIVE_INFINITY
  let waiters: { atMs: number; done: () => void }[] = []
  let session: CDPSession
  try {
    session = await page.context().newCDPSession(page)
  } catch {
    return null
  }
  let frames: BufferedFrame[] = []
  session.on('Page.screencastFrame', (frame) => {
    session.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined)
    const now = Date.now()
    // the swap time; without one, the arrival time (later than the swap: a frame is never taken as older than it is)
    const atMs = typeof frame.metadata.timestamp === 'number' ? frame.metadata.timestamp * 1000 : now
    frames.push({ png: Buffer.from(frame.data, 'base64'), atMs })
    newestAt = Math.max(newestAt, atMs)
    for (const w of waiters.filter((w) => newestAt >= w.atMs)) w.done()
    waiters = waiters.filter((w) => newestAt < w.atMs)
    pins = pins.filter((t) => t >= now - pinKeepMs)
    frames = pruneFrames(frames, now, keepMs, maxFrames, pins)
  })
  try {
    await session.send('Page.startScreencast', { format: 'png', everyNthFrame: 1 })
  } catch {
    await session.detach().catch(() => undefined)
    return null
  }
  return {
    before: (atMs) => newestFrameBefore(frames, atMs),
    pin(atMs) {
      if (Number.isFinite(atMs)) pins.push(atMs)
    },
    arrivedPast(atMs, timeoutMs = 1_000) {
      if (newestAt >= atMs) return Promise.resolve()
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs)
        function done() {
          clearTimeout(timer)
          waiters = waiters.filter((w) => w.done !== done)
          resolve()
        }
        waiters.push({ atMs, done })
      })
    },
    async stop() {
      frames = []
      for (const w of waiters.slice()) w.done()
      await session.send('Page.stopScreencast').catch(() => undefined)
      await session.detach().catch(() => undefined)
    },
  }
}

/** A box in a screenshot's pixels. */
export interface PixelBox {
  x: number
  y: number
  width: number
  height: number
}

/**
 * A recorded screenshot from one buffered frame, and nothing else: scaled to `size` (the size a live capture of
 * the page has), secrets painted over (boxes in viewport CSS pixels, `cssWidth` wide), and the `unknown` boxes (the
 * recorder's toolbar, which a screencast shows but no screenshot may) painted over too and returned in the
 * screenshot's pixels, to be listed as the step's unknown regions; `blinking` boxes (the text caret, drawn or not
 * by the phase of its blink) are listed with them but left as the frame shows them. No pixel comes from another
 * moment.
 */
export async function composeFrameShot(
  frame: Buffer,
  opts: {
    size: { width: number; height: number } | null
    masks: readonly ViewportBox[]
    unknown: readonly ViewportBox[]
    blinking?: readonly ViewportBox[]
    cssWidth: number | null
    maskColor: string
  },
): Promise<{ png: Buffer; unknown: PixelBox[] }> {
  const meta = await sharp(frame).metadata()
  const width = opts.size?.width ?? meta.width ?? 0
  const height = opts.size?.height ?? meta.height ?? 0
  if (!(width > 0 && height > 0)) return { png: frame, unknown: [] }
  const scale = opts.cssWidth ? width / opts.cssWidth : 1
  const px = (b: ViewportBox): PixelBox | null => {
    const left = Math.max(0, Math.floor(b.x * scale))
    const top = Math.max(0, Math.floor(b.y * scale))
    const right = Math.min(width, Math.ceil((b.x + b.width) * scale))
    const bottom = Math.min(height, Math.ceil((b.y + b.height) * scale))
    return right > left && bottom > top ? { x: left, y: top, width: right - left, height: bottom - top } : null
  }
  const pixels = (boxes: readonly ViewportBox[]) => boxes.map(px).filter((r): r is PixelBox => r !== null)
  const painted = [...pixels(opts.masks), ...pixels(opts.unknown)]
  const layers: OverlayOptions[] = painted.map((r) => ({
    input: { create: { width: r.width, height: r.height, channels: 3, background: opts.maskColor } },
    left: r.x,
    top: r.y,
  }))
  const base =
    meta.width === width && meta.height === height ? sharp(frame) : sharp(frame).resize(width, height, { fit: 'fill' })
  const png = await (layers.length ? sharp(await base.png().toBuffer()).composite(layers) : base).png().toBuffer()
  return { png, unknown: [...pixels(opts.unknown), ...pixels(opts.blinking ?? [])] }
}
