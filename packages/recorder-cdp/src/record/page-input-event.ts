import type { HitChainNode } from '@qa/matcher'
import type { PageElementDescription } from '../injected/page-scripts'

/**
 * The element chain under the pointer as the DOM was at pointer-down: `nodes` from the hit element up to the
 * document (`describeHitChainInPage`, for `chooseClickTarget`), `descriptions` of the first of them, up to and
 * including the first one interactive by its markup (`describeElementsInPage`), and the password fields of the
 * frame then (viewport boxes, painted over in the before-screenshot).
 */
export interface PointerDownSnapshot {
  nodes: HitChainNode[]
  descriptions: PageElementDescription[]
  passwords: { x: number; y: number; width: number; height: number }[]
}

/**
 * What the injected script reports. Coordinates are top-level viewport CSS pixels, except in a frame below a
 * cross-origin parent: there `inFrame` says how many frames up the script could walk, and the coordinates are in
 * the viewport of that frame (`placeFrameEvent` moves them to the top).
 */
export type PageInputEvent = InputEventKind & {
  inFrame?: number
  /** When the recorder received it (ms since the epoch), set on arrival. */
  receivedAt?: number
  /** Password and secret fields of the reporting frame when the input reached it (viewport CSS pixels). */
  masks?: { x: number; y: number; width: number; height: number }[]
  /** Set by `placeFrameEvent` when the frame's path in the page could not be described: read elements at points. */
  framePathUnknown?: boolean
}

type InputEventKind =
  | {
      kind: 'pointerdown'
      x: number
      y: number
      button: number
      detail: number
      /** When the pointer went down: milliseconds since the epoch (the event's own time stamp). */
      at?: number
      /**
       * When the pointer came onto the pressed control (ms since the epoch), null when the page did not see it come:
       * the step before this press ends there, before the control took its hover look.
       */
      enteredAt?: number | null
      /** Null where describing failed. Below a cross-origin parent it is in that frame's terms (`placeFrameEvent`). */
      snapshot?: PointerDownSnapshot | null
      /**
       * The element the pointer rested on that made the pressed one visible (a hover-only menu): the pressed
       * element was hidden or absent before the pointer entered it (`hoverRevealing`).
       */
      hover?: HoverReveal | null
    }
  | {
      /** The pointer went down, moved and came up elsewhere (a mouse drag or an HTML5 drag and drop). */
      kind: 'drag'
      /** The pointer-down this drag began with (its `at`). */
      downAt: number
      x: number
      y: number
      endX: number
      endY: number
      /** The element under the drop point, as the page was then. */
      drop?: PageElementDescription | null
    }
  | { kind: 'files'; names: string[]; x: number; y: number }
  /** The page saw a double click (its two presses were reported as pointer-downs before it). */
  | { kind: 'dblclick'; x: number; y: number; at?: number }
  | {
      kind: 'input'
      /** When the field's value changed: milliseconds since the epoch (before the page painted it). */
      at?: number
      value: string
      isPassword: boolean
      x: number
      y: number
      /**
       * The page's own name for the field element, the same for every input into it however it moves (its document's
       * token and a number); absent from older reporters.
       */
      fieldId?: string
      /**
       * The field as the page described it then, on the first input into a field (in frames the script can place
       * in the top page): the recorder handles typing late, and by then the page may have moved on.
       */
      field?: PageElementDescription | null
    }
  | { kind: 'select'; label: string; x: number; y: number; at?: number }
  | { kind: 'key'; key: string; at?: number }
  | { kind: 'scroll'; dx: number; dy: number; x: number; y: number; at?: number }

/** A hover that revealed the pressed element: where the pointer entered it, when, and what it was. */
export interface HoverReveal {
  /** When the pointer entered it: milliseconds since the epoch. */
  at: number
  x: number
  y: number
  description: PageElementDescription
}

export const RECORD_BINDING = '__qaRecordInput'

/**
 * Where the reporter keeps, in each frame, the fields a secret was typed into (`Symbol.for` of this key on the
 * frame's window): a function answering their boxes, `SecretFieldsInFrame`. The page knows at once that a field
 * holds a secret; the recorder handles the typing later, and a screenshot it takes meanwhile for an earlier step
 * (a "show password" toggle already made the field type=text) must still paint the field over.
 */
export const SECRET_FIELDS_KEY = 'qa.recorder.secretFields'

/**
 * Where the reporter notes, in each frame, when each input reached it (`Symbol.for` of this key on the frame's
 * window: the last 50 time stamps, ms since the epoch). The recorder reads it at once: the reports themselves
 * reach it later, and a step's after-screenshot must be from before the next input.
 */
export const INPUT_TIMES_KEY = 'qa.recorder.inputTimes'

/**
 * The secret fields of one frame: boxes in the viewport of the frame `hops` levels up from it (the highest one
 * this frame's script can place itself in; `top`: that is the top-level viewport).
 */
export interface SecretFieldsInFrame {
  top: boolean
  hops: number
  boxes: { x: number; y: number; width: number; height: number }[]
}
