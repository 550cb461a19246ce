import type { CaretBox, CaretNote } from '../injected/caret-notes'
import { type Action, isClickLike } from '@qa/model'
import type { PageElementDescription } from '../injected/page-scripts'
import type { PageInputEvent } from './page-input-event'

/**
 * What recording by hand decides from the page's input events (`PageInputEvent`), apart from reading elements and
 * taking screenshots over CDP: which step an event makes or changes, when typing goes on in the same step, which
 * click a dialog, a drag, a double click or chosen files belong to, and which inputs end a step's moment. Pure and
 * synchronous: the recorder (`hand-steps.ts`, `listen-by-hand.ts`) calls it and does the CDP work around it.
 */

/** A length as recorded: CSS pixels to two decimals. */
export const round2 = (v: number): number => Math.round(v * 100) / 100

type Box = { x: number; y: number; width: number; height: number }
type PointerDown = Extract<PageInputEvent, { kind: 'pointerdown' }>
type Input = Extract<PageInputEvent, { kind: 'input' }>

/** A pointer-down as a click step: right button → right click, a second press (`detail` ≥ 2) → double click. */
export function clickOfPointerDown(event: Pick<PointerDown, 'button' | 'detail' | 'x' | 'y'>): {
  actionType: 'click' | 'double_click' | 'right_click'
  button: 'left' | 'right' | 'middle'
  x: number
  y: number
} {
  const button = event.button === 2 ? 'right' : event.button === 1 ? 'middle' : 'left'
  const actionType = button === 'right' ? 'right_click' : event.detail >= 2 ? 'double_click' : 'click'
  return { actionType, button, x: Math.round(event.x), y: Math.round(event.y) }
}

/** A double click's second press takes the place of the click step just before it (its first press). */
export function replacesClickBefore(actionType: Action['actionType'], last: Action | undefined): boolean {
  return actionType === 'double_click' && last?.actionType === 'click'
}

/**
 * The click step a drag began with: the one pressed at the drag's pointer-down (`downAt`, the page's time of it,
 * stamped on arrival as `pageDownAt` says). Only a plain click becomes a drag: a double or right click stays what it
 * was (undefined).
 */
export function dragOwner(
  actions: readonly Action[],
  pressedAt: (action: Action) => number | undefined,
  pageDownAt: ReadonlyMap<number, number>,
  downAt: number,
): Action | undefined {
  const owner = actions.find((a) => pressedAt(a) === pageDownAt.get(downAt))
  return owner?.actionType === 'click' ? owner : undefined
}

/**
 * What was dragged, as the page described it at pointer-down, when its click found no control there: the first
 * element named by an id, a role, an aria-label or a test id, else the element under the pointer.
 */
export function draggedDescription(
  descriptions: readonly PageElementDescription[],
): PageElementDescription | undefined {
  return descriptions.find((d) => d.id || d.role || d.ariaLabel || d.dataTestId) ?? descriptions[0]
}

/** A drag step's description: what its click named, to the drop target's label or the drop point. */
export function dragDescription(
  clickDescription: string,
  dropLabel: string | null,
  endX: number,
  endY: number,
): string {
  const source = clickDescription.replace(/^Click /, '')
  return `Drag ${source} to ${dropLabel !== null ? dropLabel : `(${endX}, ${endY})`}`
}

/** How far (CSS px) a double click may be from each of its two presses. */
const DOUBLE_CLICK_NEAR_PX = 8

/**
 * The two click steps a double click the page saw was first recorded as (its presses): the last two steps, both
 * plain clicks within 8 px of it. Null otherwise (the double click changes nothing).
 */
export function doubleClickPair(
  actions: readonly Action[],
  at: { x: number; y: number },
): { first: Action; second: Action } | null {
  const [first, second] = actions.slice(-2)
  const near = (a: Action) =>
    Math.abs(a.x - at.x) <= DOUBLE_CLICK_NEAR_PX && Math.abs(a.y - at.y) <= DOUBLE_CLICK_NEAR_PX
  if (first?.actionType !== 'click' || second?.actionType !== 'click' || !near(first) || !near(second)) return null
  return { first, second }
}

/** A click step's description once it is a double click. */
export const doubleClickDescription = (clickDescription: string): string =>
  clickDescription.replace(/^Click\b/, 'Double-click')

/**
 * The step chosen files go with: the one that opened the chooser, the last click-like step or key press before
 * they were chosen. Undefined when there is none or no file was chosen.
 */
export function filesOwner(actions: readonly Action[], names: readonly string[]): Action | undefined {
  if (names.length === 0) return undefined
  return actions.findLast((a) => isClickLike(a) || a.actionType === 'key_press')
}

/** The step's description once it also chooses files. */
export const filesDescription = (description: string, names: readonly string[]): string =>
  `${description} and choose ${names.map((n) => `"${n}"`).join(', ')}`

/** The typing step still open: more input into the same field (`key`) goes on in it. */
export interface OpenTyping {
  action: Action
  key: string
  secret: boolean
}

/** Which field input went into (`fieldKey`) on the page it was typed in. */
export const typingKey = (event: Pick<Input, 'x' | 'y' | 'fieldId'>, url: string): string => `${fieldKey(event)}@${url}`

/**
 * What an input does to the open typing: `continue` when it is into the same field and that typing is still the
 * last step, with the text the step now shows (null: it keeps its text, a secret's mask, also when the field shows the
 * secret in clear); `new` otherwise.
 */
export function continueTyping(
  typing: OpenTyping | null,
  last: Action | undefined,
  key: string,
  event: Pick<Input, 'value' | 'isPassword'>,
): { kind: 'continue'; text: string | null } | { kind: 'new' } {
  if (!typing || typing.key !== key || last !== typing.action) return { kind: 'new' }
  return { kind: 'continue', text: !event.isPassword && !typing.secret ? event.value : null }
}

/** A typing step's point: the field's centre when the field is known, else where the input was reported. */
export function typingPoint(fieldBox: Box | undefined, event: Pick<Input, 'x' | 'y'>): { x: number; y: number } {
  return {
    x: Math.round(fieldBox ? fieldBox.x + fieldBox.width / 2 : event.x),
    y: Math.round(fieldBox ? fieldBox.y + fieldBox.height / 2 : event.y),
  }
}

/** A key press reported by the page as a step (no target: the page reports special keys only). */
export function keyStep(event: { key: string }): Omit<Action, 'timestamp'> {
  return { actionType: 'key_press', x: 0, y: 0, key: event.key, description: `Press ${event.key}` }
}

/** A scroll reported by the page as a step, in whole pixels. */
export function scrollStep(event: { x: number; y: number; dx: number; dy: number }): Omit<Action, 'timestamp'> {
  return {
    actionType: 'scroll',
    x: Math.round(event.x),
    y: Math.round(event.y),
    scrollDx: Math.round(event.dx),
    scrollDy: Math.round(event.dy),
    description: `Scroll by ${Math.round(event.dy)} px`,
  }
}

/**
 * The owner of a dialog opened at `openedAt`: the click pressed last before it (`downs`: pointer-down times in order
 * of arrival). `drop` when no pointer-down came before it (the page opened it by itself), `wait` while that click is
 * not a step yet.
 */
export function dialogOwner(
  openedAt: number,
  downs: readonly number[],
  actions: readonly Action[],
  pressedAt: (action: Action) => number | undefined,
): Action | 'drop' | 'wait' {
  const down = downs.filter((t) => t <= openedAt).at(-1)
  if (down === undefined) return 'drop'
  return actions.find((a) => pressedAt(a) === down) ?? 'wait'
}

/** Back or forward as a step: a navigate to the URL it reached (a replay goes there). */
export function historyStep(moved: 'back' | 'forward', url: string): Omit<Action, 'timestamp'> {
  return { actionType: 'navigate', x: 0, y: 0, url, description: `Go ${moved} to ${url}` }
}

/** Whether the last step is the keys that moved back or forward (Alt+Left …): the navigate takes its place. */
export function historyKeysBefore(last: Action | undefined): boolean {
  return last?.actionType === 'key_press' && /^Alt\+Arrow(Left|Right)$|^Browser(Back|Forward)$/.test(last.key ?? '')
}

/** An input as it reached the page: its own time (ms since the epoch), typing's field, the secrets' boxes then. */
export interface ReachedInput {
  at: number
  field?: string
  masks?: Box[]
}

/**
 * The field of typing as `ReachedInput.field` and the open typing name it: the page's own name for the field element
 * (it stays when the field moves while typed into: a dialog sliding in, a hint above it growing), else its reported
 * point, rounded.
 */
export const fieldKey = (event: Pick<Input, 'x' | 'y' | 'fieldId'>): string =>
  event.fieldId ? `#${event.fieldId}` : `${Math.round(event.x)},${Math.round(event.y)}`

/**
 * How an event ends the moment of the step before it (its after-screenshot must be from before it), or null for
 * events that do not (a drag, a double click, chosen files: their presses did). Time: the page's own, never later
 * than the arrival; secret boxes only from the top viewport (a frame below a cross-origin parent reports in its own).
 */
export function reachedInput(event: PageInputEvent & { receivedAt: number }): ReachedInput | null {
  if (
    event.kind !== 'pointerdown' &&
    event.kind !== 'input' &&
    event.kind !== 'select' &&
    event.kind !== 'key' &&
    event.kind !== 'scroll'
  )
    return null
  const at = Math.min(event.at ?? event.receivedAt, event.receivedAt)
  return {
    at,
    ...(event.kind === 'input' ? { field: fieldKey(event) } : {}),
    ...(event.masks && event.inFrame === undefined ? { masks: event.masks } : {}),
  }
}

/** The first input that reached the page after `atMs`. */
export function nextInput(inputs: readonly ReachedInput[], atMs: number): ReachedInput | undefined {
  return inputs.reduce<ReachedInput | undefined>((a, i) => (i.at > atMs && (!a || i.at < a.at) ? i : a), undefined)
}

/**
 * The secrets' boxes as the page reported them at the inputs around `atMs` (the last one at or before it and the
 * first one after it): a frame of that moment is painted over there, whatever the page shows now.
 */
export function masksAround(inputs: readonly ReachedInput[], atMs: number): Box[] {
  let before: ReachedInput | undefined
  let after: ReachedInput | undefined
  for (const i of inputs) {
    if (i.at <= atMs && (!before || i.at > before.at)) before = i
    if (i.at > atMs && (!after || i.at < after.at)) after = i
  }
  return [...(before?.masks ?? []), ...(after?.masks ?? [])]
}

/**
 * Where the text caret may be drawn in a frame of moment `atMs`: its place at the last note at or before it and
 * at the first note after it (a note is taken as the page handles an event, a frame shows it a moment later).
 */
export function caretsAround(notes: readonly CaretNote[], atMs: number): CaretBox[] {
  let before: CaretNote | undefined
  let after: CaretNote | undefined
  for (const n of notes) {
    if (n.at <= atMs && (!before || n.at >= before.at)) before = n
    if (n.at > atMs && (!after || n.at < after.at)) after = n
  }
  return [before?.box, after?.box].filter((b): b is CaretBox => !!b)
}
