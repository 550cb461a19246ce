/**
 * The in-memory model (camelCase) of the test-case format (results and reports: `replay-results.ts`).
 *
 * Conventions, true for every object type here:
 * - An optional field may be absent, `null`, or a value; the three are kept apart through a round trip.
 * - `extra` holds the fields of the file this version does not know, under their file names, so that they
 *   are written back unchanged. It is absent when there were none.
 * - Free-form payloads (`visualFeatures`, `nearbyElements`, `details`) are JSON values kept as they are.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }
export type JsonObject = { [key: string]: JsonValue }

/** Unknown fields of a file object, keyed by their file (snake_case) names. */
export type Extra = JsonObject

export const CURRENT_FORMAT_VERSION = '3.2'
export const SUPPORTED_MAJOR_VERSIONS = [1, 2, 3] as const

export type Platform = 'desktop' | 'web'
export const PLATFORMS: readonly Platform[] = ['desktop', 'web']

export type ActionType =
  | 'click'
  | 'double_click'
  | 'right_click'
  | 'type'
  | 'key_press'
  | 'scroll'
  | 'drag'
  | 'wait'
  | 'navigate'
  | 'select'
  | 'assert'
  | 'hover'
export const ACTION_TYPES: readonly ActionType[] = [
  'click',
  'double_click',
  'right_click',
  'type',
  'key_press',
  'scroll',
  'drag',
  'wait',
  'navigate',
  'select',
  'assert',
  'hover',
]
/** Action types that act on an element at a point; a case is legacy when one of them lacks semantics. */
export const CLICK_LIKE_ACTION_TYPES: readonly ActionType[] = ['click', 'double_click', 'right_click']

/** `back` and `forward` are the side buttons of a mouse (history back/forward), as DevTools records them. */
export type MouseButton = 'left' | 'right' | 'middle' | 'back' | 'forward'
export const MOUSE_BUTTONS: readonly MouseButton[] = ['left', 'right', 'middle', 'back', 'forward']

/** Keys held down during a click (Shift-click selects a range, Control-click opens in a new tab, …). */
export type KeyModifier = 'Alt' | 'Control' | 'Meta' | 'Shift'
export const KEY_MODIFIERS: readonly KeyModifier[] = ['Alt', 'Control', 'Meta', 'Shift']

export type DialogType = 'alert' | 'confirm' | 'prompt' | 'beforeunload'
export const DIALOG_TYPES: readonly DialogType[] = ['alert', 'confirm', 'prompt', 'beforeunload']

/**
 * How the person answered a JavaScript dialog (alert, confirm, prompt, beforeunload) the step opened (web): a
 * replay answers it the same way.
 */
export interface DialogAnswer {
  type: DialogType
  /** The dialog's text, as it was recorded. */
  message?: string | null
  /** OK (true) or Cancel (false). */
  accept: boolean
  /** What was typed into a prompt before OK. */
  promptText?: string | null
  extra?: Extra
}

export type EnrichmentStatus = 'enriched' | 'skipped' | 'failed' | 'pending'
export const ENRICHMENT_STATUSES: readonly EnrichmentStatus[] = ['enriched', 'skipped', 'failed', 'pending']

export interface BoundingBox {
  x: number
  y: number
  width: number
  height: number
  extra?: Extra
}

export interface Point {
  x: number
  y: number
  extra?: Extra
}

export interface Size {
  width: number
  height: number
  extra?: Extra
}

export interface ScreenInfo {
  width: number
  height: number
  /** Device pixels per logical pixel (HiDPI scale factor). */
  scale?: number | null
  /** Every monitor, when more than one was attached while recording. */
  displays?: BoundingBox[] | null
  extra?: Extra
}

/** What was clicked, as seen in pixels (desktop) (`target_element`). */
export interface TargetElement {
  /** button, icon, text_field, image, tab, link, checkbox, … */
  type: string
  text?: string | null
  description?: string | null
  boundingBox?: BoundingBox | null
  /** 0–1, how sure the analyzer was. */
  confidence?: number | null
  /** e.g. `{ "color": "blue", "shape": "rounded_rectangle", "icon": "door" }` */
  visualFeatures?: JsonValue
  /** center, top_left, bottom_right, … */
  relativePosition?: string | null
  extra?: Extra
}

export interface ActionContext {
  /** lobby, main_menu, settings, loading, … */
  screenState?: string | null
  /** Labels (or small objects) of notable elements around the target. */
  nearbyElements?: JsonValue[] | null
  expectedResult?: string | null
  extra?: Extra
}

export interface SemanticInfo {
  /** enter_game, open_settings, confirm_action, click_button, … */
  intent?: string | null
  targetElement?: TargetElement | null
  context?: ActionContext | null
  extra?: Extra
}

export interface ScreenTransition {
  changed?: boolean | null
  /** scene_change, popup_open, loading_start, full_transition, none, … */
  transitionType?: string | null
  /** Hamming distance between the before/after perceptual hashes. */
  hashDifference?: number | null
  resultState?: string | null
  /** Whether the transition was the intended one. */
  success?: boolean | null
  extra?: Extra
}

/** How a web element is recognised again, most stable first. */
export interface ElementIdentity {
  axRole?: string | null
  axName?: string | null
  ariaLabel?: string | null
  dataTestId?: string | null
  /** The form `name` attribute. */
  name?: string | null
  tagName: string
  /** The input `type` attribute. */
  type?: string | null
  placeholder?: string | null
  boundingBox: BoundingBox
  visualHash?: string | null
  textContent?: string | null
  /** Epoch milliseconds. */
  capturedAt?: number | null
  /** The DOM `id` attribute. */
  id?: string | null
  classNames?: string[] | null
  /**
   * Icon classes of the element and what it holds (`fa-facebook`, `bx-trash`, `bi-gear`): which icon an
   * icon-only control shows, also where the icon font did not load.
   */
  iconClasses?: string[] | null
  href?: string | null
  xpath?: string | null
  /** Visible text of the nearest neighbours, for the similarity strategy. */
  neighborText?: string[] | null
  /** CSS selectors of the iframes from the top document down to the element's frame. */
  framePath?: string[] | null
  /** CSS selectors of the open shadow hosts from the document down to the element's root. */
  shadowPath?: string[] | null
  /** CDP backend node id at record time (diagnostics only; not stable across loads). */
  backendNodeId?: number | null
  /**
   * How many other elements of the page carried a label agreeing with this one when it was recorded
   * (0: the label was unique). A label unique then and unique now identifies the element even after it
   * moved; absent means unknown.
   */
  sameLabelCount?: number | null
  /**
   * For a form field (a select, a textarea, a text input) inside a landmark (`nav`, `header`, `footer`, `aside`,
   * `main`): how many fields of its kind that landmark held when it was recorded, itself included. 1 makes it "the
   * text field of the navbar", which a person finds again by that alone; absent means unknown or not such a field.
   */
  fieldsInLandmark?: number | null
  /**
   * How many other elements of the page carried exactly the recorded label (the same whole text, case and
   * punctuation aside) when it was recorded. 0 with a higher `sameLabelCount`: the other holders only agreed with it.
   */
  exactLabelCount?: number | null
  /**
   * Where a radio button (or a checkbox of a named list) stands in its group: the inputs of its type that share
   * its form `name` in its form. A group of the same size with an option at the same place is the recorded group,
   * whatever its options are called now.
   */
  groupPosition?: GroupPosition | null
  /**
   * How far the element's document was scrolled when it was described (CSS px; top document only). With
   * `boundingBox` (viewport) it gives the element's place in the document: a replay scrolled otherwise than the
   * recording still finds the element where it stood on the page, not only where it stood on the screen.
   */
  pageScroll?: Point | null
  extra?: Extra
}

/** An option's place in its group: `index` from 0, of `size` options, and its `value` attribute when it has one. */
export interface GroupPosition {
  index: number
  size: number
  /** What the option submits (its `value` attribute): a reworded option keeps it, another option does not. */
  value?: string | null
}

/**
 * What an `assert` step checks (format 3.1):
 * - `visible` / `hidden`: the target is (not) visible; `hidden` also holds when no element has the target's
 *   identity any more.
 * - `text` / `value`: the target's visible text / form value `equals` or `contains` `expected`, both with
 *   whitespace collapsed and Unicode NFC-normalised; `matches` takes `expected` as a regular expression.
 * - `checked`: the target's checked state is `expected` (default true).
 * - `url`: the page's URL `equals`, `contains` or `matches` `expected`.
 * - `count`: how many elements carry the target's identity `equals` (default), is `at_least` or `at_most`
 *   `expected`.
 * - `expression`: the JavaScript expression `expected` is truthy in the page (DevTools `waitForExpression`).
 */
export type AssertionKind = 'visible' | 'hidden' | 'text' | 'value' | 'checked' | 'url' | 'count' | 'expression'
export const ASSERTION_KINDS: readonly AssertionKind[] = [
  'visible',
  'hidden',
  'text',
  'value',
  'checked',
  'url',
  'count',
  'expression',
]
export type AssertionOp = 'equals' | 'contains' | 'matches' | 'at_least' | 'at_most'
export const ASSERTION_OPS: readonly AssertionOp[] = ['equals', 'contains', 'matches', 'at_least', 'at_most']

export interface Assertion {
  kind: AssertionKind
  /** How `expected` is compared; each kind has a default (`equals`, `contains` for text). */
  op?: AssertionOp | null
  /** Text for text/value/url/expression, a boolean for checked, a number for count; none for visible/hidden. */
  expected?: string | number | boolean | null
  extra?: Extra
}

export interface Selectors {
  css?: string | null
  xpath?: string | null
  fallbacks?: string[] | null
  extra?: Extra
}

export type StrategyOutcome = 'matched' | 'none' | 'ambiguous' | 'skipped' | 'error' | 'below_threshold'
export const STRATEGY_OUTCOMES: readonly StrategyOutcome[] = [
  'matched',
  'none',
  'ambiguous',
  'skipped',
  'error',
  'below_threshold',
]

/** One strategy tried while locating an element. */
export interface StrategyAttempt {
  strategy: string
  outcome: StrategyOutcome
  /** How many elements the strategy found. */
  candidates?: number | null
  confidence?: number | null
  durationMs?: number | null
  detail?: string | null
  extra?: Extra
}

/** A heal: the recorded locator failed and another strategy found the element. */
export interface HealingRecord {
  /** ISO-8601. */
  healedAt: string
  strategy: string
  confidence: number
  previousSelector?: string | null
  newSelector?: string | null
  coordinateChange?: Point | null
  strategiesTried?: StrategyAttempt[] | null
  /** True when the step's verification passed after the heal (only then is a heal learnt). */
  verified?: boolean | null
  extra?: Extra
}

/** Per recorded screenshot, boxes in that screenshot's pixels whose content is unknown (never compared). */
export interface UnknownRegions {
  /** Boxes of `screenshot_before_path` (and of the element crop cut from it). */
  before?: BoundingBox[] | null
  /** Boxes of `screenshot_path`. */
  after?: BoundingBox[] | null
}

export interface Action {
  /** ISO-8601 string (desktop recorders) or epoch milliseconds. */
  timestamp: string | number
  actionType: ActionType
  x: number
  y: number
  button?: MouseButton | null
  /** Keys held down during a click-like or hover step. */
  modifiers?: KeyModifier[] | null
  key?: string | null
  text?: string | null
  /** The chosen option of a `select` action. */
  value?: string | null
  /** Name of the environment variable that holds a masked secret (password fields). */
  secretEnv?: string | null
  /** Where a `drag` ends. */
  endX?: number | null
  endY?: number | null
  /** The element a `drag` was dropped on (web), located on replay like the dragged one (`identity`). */
  dropIdentity?: ElementIdentity | null
  dropSelectors?: Selectors | null
  scrollDx?: number | null
  scrollDy?: number | null
  durationMs?: number | null
  /** Target of a `navigate` action. */
  url?: string | null
  /**
   * The step opened a new page (a link with target=_blank, window.open): the steps after it were recorded in
   * that page, and a replay continues there (web).
   */
  opensPage?: boolean | null
  /** The JavaScript dialog the step opened, and the answer given to it (web). */
  dialog?: DialogAnswer | null
  /**
   * The names of the files the person chose in the file chooser this step opened (web); a replay gives the files
   * of these names from a folder named at replay (`qa replay --files-dir`).
   */
  files?: string[] | null
  description: string
  screenshotBeforePath?: string | null
  /** The after-screenshot, used for verification. */
  screenshotPath?: string | null
  /** Crop around the acted element (template matching). */
  elementCropPath?: string | null
  /** Where that crop was taken, in screenshot pixels (the click point's offset inside it is kept on replay). */
  elementCropBox?: BoundingBox | null
  /**
   * Regions of the recorded screenshots whose pixels show no clean view of the page at that moment (the
   * recorder's own toolbar in a screencast frame): painted over, never compared on replay.
   */
  unknownRegions?: UnknownRegions | null
  /**
   * Regions of the recorded screen that changed frame after frame while nobody did anything (sprites, blinking
   * carets, clocks, particle backgrounds), learned by the desktop recorder from its frame ring: boxes in
   * screenshot pixels, the same in the before- and after-screenshot. Not evidence: a replay's verdict never
   * compares them, and its report outlines them.
   */
  animatedRegions?: BoundingBox[] | null
  uiStateHashBefore?: string | null
  uiStateHashAfter?: string | null
  semanticInfo?: SemanticInfo | null
  screenTransition?: ScreenTransition | null
  identity?: ElementIdentity | null
  selectors?: Selectors | null
  healingHistory?: HealingRecord[] | null
  enrichmentStatus?: EnrichmentStatus | null
  /**
   * The control the clicked element operates (web): a click on a `<label>` or on the styled part of a custom
   * checkbox, radio or switch records that element as `identity` and the `<input>` it toggles here. Replay
   * clicks what the person clicked and falls back to this control.
   */
  operates?: ElementIdentity | null
  /**
   * Something a person should know about how the step was recorded, e.g. no interactive element under the
   * point, so the step has no identity and replays by coordinates.
   */
  warning?: string | null
  /** What an `assert` step checks; its target is `identity` (none for `url` and `expression`). */
  assertion?: Assertion | null
  /**
   * The program window under the click (desktop): where it was and how large, and which program it is. Replay
   * finds the same program's window now and maps the recorded point through it (moved, resized, scaled).
   */
  window?: DesktopWindow | null
  extra?: Extra
}

/** A top-level program window on the desktop (X11: a child of the root window). */
export interface DesktopWindow {
  /** Its place and size on the screen, in screenshot pixels. */
  box: BoundingBox
  /** The program's window class (X11 `WM_CLASS`, its class part, e.g. `Sudoku`). */
  className?: string | null
  /** Its title when recorded (X11 `WM_NAME`). */
  title?: string | null
  extra?: Extra
}

export interface TestCase {
  name: string
  /** The format version of this object; always CURRENT_FORMAT_VERSION after loading. */
  version: string
  platform: Platform
  createdAt?: string | null
  enrichedAt?: string | null
  description?: string | null
  tags?: string[] | null
  startUrl?: string | null
  viewport?: Size | null
  screen?: ScreenInfo | null
  actions: Action[]
  extra?: Extra
}
