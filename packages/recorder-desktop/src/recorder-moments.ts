import type { RawAction } from './coalesce-actions'

/*
 * The desktop recorder's pure decisions about time: when the pointer arrived at a click, when a frame may be an
 * action's after-frame, and how an action is described. Unit-tested without a screen.
 */

/** A pointer position the hook reported. */
export interface PointerAt {
  timeMs: number
  x: number
  y: number
}

/**
 * When the pointer came near (x, y) for the last time before `clickMs`: the time of the first pointer event
 * inside the near box after the latest one outside it. Null when the moves kept do not show it arriving (it
 * rested there longer than they reach back, or no move was seen).
 */
export function pointerArrivalMs(
  moves: readonly PointerAt[],
  x: number,
  y: number,
  clickMs: number,
  near: { halfWidth: number; halfHeight: number },
): number | null {
  let arrival: number | null = null
  for (let i = moves.length - 1; i >= 0; i--) {
    const m = moves[i] as PointerAt
    if (m.timeMs > clickMs) continue
    const inside = Math.abs(m.x - x) <= near.halfWidth && Math.abs(m.y - y) <= near.halfHeight
    if (!inside) return arrival
    arrival = m.timeMs
  }
  return null
}

/** How far before an action its animated regions are learned (4 s; the ring keeps no frames, only tile changes). */
export const ANIMATION_LOOKBACK_MS = 4000

/**
 * Whether a frame captured at `frameMs` is an action's after-frame: at least `settleMs` after the action's last
 * event (`endMs`), and the screen unchanged since `stillSinceMs` for `quietMs` — or `capMs` past the settle
 * time whatever the screen does (an animation). A frame identical to the step's before-frame (`sameAsBefore`, asked
 * for keys and typing) waits for the cap: the answer to a key may come after a still moment. Pure.
 */
export function afterFrameReady(
  frameMs: number,
  stillSinceMs: number,
  o: { endMs: number; settleMs: number; quietMs: number; capMs: number; sameAsBefore?: boolean },
): boolean {
  const from = o.endMs + o.settleMs
  if (frameMs < from) return false
  if (frameMs >= from + o.capMs) return true
  // a key step's screen still exactly as before the key: the program has not drawn its answer yet (a game on a
  // loaded machine moves its highlight late); look again until the cap rather than store a step that did nothing
  if (o.sameAsBefore === true) return false
  return frameMs - stillSinceMs >= o.quietMs
}

/** The step's description from what the hook saw (a typed secret is never spelled out). */
export function describeRawAction(raw: RawAction, masked: boolean): string {
  switch (raw.actionType) {
    case 'click':
      return `Click (${raw.x}, ${raw.y})`
    case 'double_click':
      return `Double-click (${raw.x}, ${raw.y})`
    case 'right_click':
      return `Right-click (${raw.x}, ${raw.y})`
    case 'drag':
      return `Drag (${raw.x}, ${raw.y}) → (${raw.endX}, ${raw.endY})`
    case 'scroll':
      return `Scroll (${raw.scrollDx ?? 0}, ${raw.scrollDy ?? 0}) at (${raw.x}, ${raw.y})`
    case 'type':
      return masked ? 'Type a secret' : `Type "${raw.text ?? ''}"`
    case 'key_press':
      return `Press ${raw.key}`
    default:
      return raw.actionType
  }
}
