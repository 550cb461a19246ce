import type { CDPSession, Page } from 'playwright-core'
import sharp, { type OverlayOptions } from 'sharp'
import type { ViewportBox } from './cdp-secret-fields'

/**
 * What the page showed a moment ago (SPEC §4, as the desktop recorder's frame ring): frames of CDP's screencast,
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
 * always the newest older than that window (it is what the page showed since, on a page that did not repaint).
 */
export function pruneFrames<F extends { atMs: number }>(
  frames: readonly F[],
  nowMs: number,
  keepMs: number,
  maxFrames: number,
): F[] {
  const sorted = [...frames].sort((a, b) => a.atMs - b.atMs)
  let firstKept = sorted.findIndex((f) => f.atMs >= nowMs - keepMs)
  if (firstKept === -1) firstKept = sorted.length
  const from = Math.max(0, firstKept - 1, sorted.length - Math.max(1, maxFrames))
  return sorted.slice(from)
}

export interface FrameBuffer {
  /** The newest frame shown before `atMs` (ms since the epoch), or null. */
  before(atMs: number): BufferedFrame | null
  stop(): Promise<void>
}

export interface FrameBufferOptions {
  /** How long frames are kept (default 20 s: the steps in the recorder's queue may be handled that late). */
  keepMs?: number
  /** At most this many frames (default 80). */
  maxFrames?: number
}

/** Starts the page's screencast (PNG, every frame) and keeps its frames; null when the browser refuses. */
export async function startFrameBuffer(page: Page, opts: FrameBufferOptions = {}): Promise<FrameBuffer | null> {
  const keepMs = opts.keepMs ?? 20_000
  const maxFrames = opts.maxFrames ?? 80
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
    frames = pruneFrames(frames, now, keepMs, maxFrames)
  })
  try {
    await session.send('Page.startScreencast', { format: 'png', everyNthFrame: 1 })
  } catch {
    await session.detach().catch(() => undefined)
    return null
  }
  return {
    before: (atMs) => newestFrameBefore(frames, atMs),
    async stop() {
      frames = []
      await session.send('Page.stopScreencast').catch(() => undefined)
      await session.detach().catch(() => undefined)
    },
  }
}

/**
 * A before-screenshot from a buffered frame: scaled to the live capture's size, secrets painted over (boxes in
 * viewport CSS pixels, `cssWidth` wide), and the `fromLive` boxes (the recorder's toolbar, which a screencast
 * shows but no screenshot may) filled with the live capture's pixels there, which never show the toolbar.
 */
export async function composeBeforeShot(
  frame: Buffer,
  live: Buffer,
  opts: { masks: readonly ViewportBox[]; fromLive: readonly ViewportBox[]; cssWidth: number | null; maskColor: string },
): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(live).metadata()
  if (!(width > 0 && height > 0)) return live
  const scale = opts.cssWidth ? width / opts.cssWidth : 1
  const px = (b: ViewportBox) => {
    const left = Math.max(0, Math.floor(b.x * scale))
    const top = Math.max(0, Math.floor(b.y * scale))
    const right = Math.min(width, Math.ceil((b.x + b.width) * scale))
    const bottom = Math.min(height, Math.ceil((b.y + b.height) * scale))
    return right > left && bottom > top ? { left, top, width: right - left, height: bottom - top } : null
  }
  const layers: OverlayOptions[] = []
  for (const b of opts.fromLive) {
    const r = px(b)
    if (r) layers.push({ input: await sharp(live).extract(r).png().toBuffer(), left: r.left, top: r.top })
  }
  for (const b of opts.masks) {
    const r = px(b)
    if (r)
      layers.push({
        input: { create: { width: r.width, height: r.height, channels: 3, background: opts.maskColor } },
        left: r.left,
        top: r.top,
      })
  }
  const base = sharp(frame).resize(width, height, { fit: 'fill' })
  return (layers.length ? sharp(await base.png().toBuffer()).composite(layers) : base).png().toBuffer()
}
