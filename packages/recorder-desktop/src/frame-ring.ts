import { DesktopError } from './errors'
import type { RgbaFrame } from './frame'

/** A captured frame and when its capture completed (epoch ms, fractional). */
export interface TimedFrame {
  frame: RgbaFrame
  timeMs: number
  /** Sequence number, increasing by one per pushed frame. */
  seq: number
}

export interface FrameRingOptions {
  /** Frames kept (bounded memory); older ones are dropped. Default 20 (2 s at 100 ms). */
  capacity?: number
}

/** A bounded buffer of the latest screen frames; the "before" frame of a click is `newestBefore(click time)`. */
export interface FrameRing {
  readonly capacity: number
  readonly size: number
  push(frame: RgbaFrame, timeMs: number): TimedFrame
  /** The newest frame whose capture completed strictly before `timeMs`, or null when none is kept. */
  newestBefore(timeMs: number): TimedFrame | null
  /** The oldest frame captured at or after `timeMs`, or null when none yet. */
  firstAtOrAfter(timeMs: number): TimedFrame | null
  latest(): TimedFrame | null
  frames(): TimedFrame[]
  clear(): void
}

/** Frames needed to cover `windowMs` at one frame per `intervalMs`. */
export function ringCapacityFor(windowMs: number, intervalMs: number): number {
  if (!(intervalMs > 0) || !(windowMs > 0))
    throw new DesktopError(
      'DESKTOP_BAD_OPTION',
      `Frame interval and window must be positive, got ${intervalMs} and ${windowMs} ms.`,
    )
  return Math.max(2, Math.ceil(windowMs / intervalMs) + 1)
}

export function createFrameRing(opts: FrameRingOptions = {}): FrameRing {
  const capacity = opts.capacity ?? 20
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new DesktopError('DESKTOP_BAD_OPTION', `Frame ring capacity must be a positive integer, got ${capacity}.`)
  const slots: (TimedFrame | undefined)[] = new Array(capacity)
  let next = 0
  let size = 0
  let seq = 0
  // oldest → newest
  const ordered = (): TimedFrame[] => {
    const out: TimedFrame[] = []
    for (let i = 0; i < size; i++) out.push(slots[(next - size + i + capacity) % capacity] as TimedFrame)
    return out
  }
  return {
    capacity,
    get size() {
      return size
    },
    push(frame, timeMs) {
      const last = size > 0 ? (slots[(next - 1 + capacity) % capacity] as TimedFrame) : null
      // time never goes backwards inside the ring, so lookups can rely on order
      const t = last && timeMs < last.timeMs ? last.timeMs : timeMs
      const item: TimedFrame = { frame, timeMs: t, seq: seq++ }
      slots[next] = item
      next = (next + 1) % capacity
      size = Math.min(capacity, size + 1)
      return item
    },
    newestBefore(timeMs) {
      for (let i = 1; i <= size; i++) {
        const f = slots[(next - i + capacity) % capacity] as TimedFrame
        if (f.timeMs < timeMs) return f
      }
      return null
    },
    firstAtOrAfter(timeMs) {
      let found: TimedFrame | null = null
      for (let i = 1; i <= size; i++) {
        const f = slots[(next - i + capacity) % capacity] as TimedFrame
        if (f.timeMs >= timeMs) found = f
        else break
      }
      return found
    },
    latest() {
      return size > 0 ? (slots[(next - 1 + capacity) % capacity] as TimedFrame) : null
    },
    frames: ordered,
    clear() {
      slots.fill(undefined)
      size = 0
      next = 0
    },
  }
}
