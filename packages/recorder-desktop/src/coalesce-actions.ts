import type { ActionType, MouseButton } from '@qa/model'
import { DesktopError } from './errors'
import { type InputEvent, MODIFIER_KEYS } from './input-event'

/** An action as the coalescer sees it; the recorder adds screenshots and semantics. */
export interface RawAction {
  id: number
  actionType: ActionType
  /** When the action started (mouse down, first key, first wheel tick), epoch ms. */
  timeMs: number
  /** When the action's last event happened (second click of a double click, last key), epoch ms. */
  endTimeMs: number
  x: number
  y: number
  button?: MouseButton
  key?: string
  text?: string
  endX?: number
  endY?: number
  scrollDx?: number
  scrollDy?: number
  durationMs?: number
}

/** What the coalescer tells its owner after an event. */
export type CoalesceOp =
  | { op: 'append'; action: RawAction }
  /** An action already appended changed (a click became a double click, typing grew, a scroll summed up). */
  | { op: 'update'; action: RawAction }
  | { op: 'stop'; timeMs: number }

export interface CoalesceOptions {
  /** Second click within this many ms at (almost) the same place → double click. Default 400. */
  doubleClickMs?: number
  /** Mouse travel (px) between down and up that makes a drag. Default 6. */
  dragThresholdPx?: number
  /** Wheel ticks closer than this (ms) at the same place sum into one scroll. Default 350. */
  scrollGapMs?: number
  /** A pause longer than this (ms) starts a new `type` action. Default 1500. */
  typingGapMs?: number
  /** Key that stops recording (never recorded). Default `f10`. */
  stopKey?: string
}

export interface ActionCoalescer {
  push(event: InputEvent): CoalesceOp[]
  /** Ends any open typing/scroll; returns nothing new (open actions were already appended). */
  flush(): CoalesceOp[]
  readonly actions: readonly RawAction[]
}

const CLOSE_PX = 6

/**
 * Turns a stream of hook events into test-case actions, as they happen: clicks, double/right clicks, drags,
 * scrolls (summed), typing (coalesced into one `type` action, Backspace edits it), key presses with modifiers
 * (`ctrl+s`), and the stop hotkey. Pure and synchronous: the recorder calls it from the hook callback.
 */
export function createActionCoalescer(opts: CoalesceOptions = {}): ActionCoalescer {
  const doubleClickMs = opts.doubleClickMs ?? 400
  const dragThresholdPx = opts.dragThresholdPx ?? 6
  const scrollGapMs = opts.scrollGapMs ?? 350
  const typingGapMs = opts.typingGapMs ?? 1500
  const stopKey = (opts.stopKey ?? 'f10').toLowerCase()
  for (const [k, v] of Object.entries({ doubleClickMs, dragThresholdPx, scrollGapMs, typingGapMs }))
    if (!Number.isFinite(v) || v < 0)
      throw new DesktopError('DESKTOP_BAD_OPTION', `${k}: expected a non-negative number, got ${v}.`)

  const actions: RawAction[] = []
  let nextId = 0
  const presses = new Map<MouseButton, { x: number; y: number; timeMs: number }>()
  let typing: RawAction | null = null
  let scrolling: RawAction | null = null
  let lastClick: RawAction | null = null
  let stopped = false

  const append = (a: Omit<RawAction, 'id'>): CoalesceOp => {
    const action = { ...a, id: nextId++ }
    actions.push(action)
    return { op: 'append', action }
  }
  const endOpen = () => {
    typing = null
    scrolling = null
  }

  return {
    actions,
    flush() {
      endOpen()
      return []
    },
    push(e) {
      if (stopped) return []
      switch (e.kind) {
        case 'mousemove':
          return []
        case 'mousedown': {
          endOpen()
          presses.set(e.button, { x: e.x, y: e.y, timeMs: e.timeMs })
          return []
        }
        case 'mouseup': {
          const down = presses.get(e.button)
          presses.delete(e.button)
          if (!down) return [] // the press happened before recording started
          if (Math.hypot(e.x - down.x, e.y - down.y) > dragThresholdPx) {
            lastClick = null
            return [
              append({
                actionType: 'drag',
                timeMs: down.timeMs,
                endTimeMs: e.timeMs,
                x: down.x,
                y: down.y,
                endX: e.x,
                endY: e.y,
                button: e.button,
                durationMs: Math.round(e.timeMs - down.timeMs),
              }),
            ]
          }
          const prev = lastClick
          if (
            prev &&
            prev.actionType === 'click' &&
            prev.button === e.button &&
            down.timeMs - prev.endTimeMs <= doubleClickMs &&
            Math.hypot(down.x - prev.x, down.y - prev.y) <= CLOSE_PX
          ) {
            prev.actionType = 'double_click'
            prev.endTimeMs = e.timeMs
            lastClick = null
            return [{ op: 'update', action: prev }]
          }
          const op = append({
            actionType: e.button === 'right' ? 'right_click' : 'click',
            timeMs: down.timeMs,
            endTimeMs: e.timeMs,
            x: down.x,
            y: down.y,
            button: e.button,
          })
          lastClick = op.op === 'append' ? op.action : null
          return [op]
        }
        case 'wheel': {
          typing = null
          lastClick = null
          const s = scrolling
          if (s && e.timeMs - s.endTimeMs <= scrollGapMs && Math.hypot(e.x - s.x, e.y - s.y) <= CLOSE_PX) {
            s.scrollDx = (s.scrollDx ?? 0) + e.dx
            s.scrollDy = (s.scrollDy ?? 0) + e.dy
            s.endTimeMs = e.timeMs
            return [{ op: 'update', action: s }]
          }
          const op = append({
            actionType: 'scroll',
            timeMs: e.timeMs,
            endTimeMs: e.timeMs,
            x: e.x,
            y: e.y,
            scrollDx: e.dx,
            scrollDy: e.dy,
          })
          scrolling = op.op === 'append' ? op.action : null
          return [op]
        }
        case 'keyup':
          return []
        case 'keydown': {
          const key = e.key.toLowerCase()
          if (key === stopKey) {
            stopped = true
            endOpen()
            return [{ op: 'stop', timeMs: e.timeMs }]
          }
          if (MODIFIER_KEYS.has(key) || e.dead) return []
          scrolling = null
          lastClick = null
          const printable = typeof e.char === 'string' && e.char.length > 0 && !e.ctrl && !e.alt && !e.meta
          const t = typing
          if (printable) {
            if (t && e.timeMs - t.endTimeMs <= typingGapMs) {
              t.text = `${t.text ?? ''}${e.char}`
              t.endTimeMs = e.timeMs
              return [{ op: 'update', action: t }]
            }
            const op = append({
              actionType: 'type',
              timeMs: e.timeMs,
              endTimeMs: e.timeMs,
              x: 0,
              y: 0,
              text: e.char as string,
            })
            typing = op.op === 'append' ? op.action : null
            return [op]
          }
          if (key === 'backspace' && t && (t.text ?? '').length > 0 && e.timeMs - t.endTimeMs <= typingGapMs) {
            t.text = Array.from(t.text ?? '')
              .slice(0, -1)
              .join('')
            t.endTimeMs = e.timeMs
            return [{ op: 'update', action: t }]
          }
          typing = null
          const combo = [e.ctrl && 'ctrl', e.alt && 'alt', e.meta && 'meta', e.shift && !e.char && 'shift', key]
            .filter(Boolean)
            .join('+')
          return [append({ actionType: 'key_press', timeMs: e.timeMs, endTimeMs: e.timeMs, x: 0, y: 0, key: combo })]
        }
      }
    },
  }
}
