import type { ScreenTransition } from '@qa/model'
import { VisionError } from './errors'
import { extractJson } from './extract-json'
import type { UiAnalysis, UiElement, VisionAnswer } from './types'

const STRICT =
  'Answer with ONE JSON object and nothing else: no prose, no code fences. Pixel coordinates are integers in ' +
  'the image exactly as given to you (origin top-left). Keep visible text exactly as written, in its own ' +
  'language (Korean stays Hangul).'

export const SYSTEM_PROMPT =
  'You are a precise UI analysis assistant for automated testing of games and web apps. You locate UI ' +
  'elements on screenshots and describe them. You always answer in strict JSON.'

export function screenPrompt(): string {
  return [
    'List every interactive UI element visible in image 1 (buttons, icons, tabs, links, text fields, checkboxes,',
    'menu items, sliders) and prominent text labels. Also name the screen state (lobby, main_menu, settings,',
    'loading, game, dialog, login, …).',
    STRICT,
    'Schema: {"screen_state": string, "elements": [{"type": string, "text": string, "description": string,',
    '"bounding_box": {"x": left, "y": top, "width": number, "height": number}, "confidence": 0..1}]}',
  ].join('\n')
}

export function elementPrompt(point: { x: number; y: number }): string {
  return [
    `Image 1 is a crop of the screen around the point the user clicked, at (${point.x}, ${point.y}) in image 1`,
    'pixels. Image 2 is the whole screen, for context. Identify the UI element under that point, what it does,',
    "and the click's intent in snake_case (enter_game, open_settings, confirm_action, start_game, close_dialog, …).",
    STRICT,
    'Schema: {"element": {"type": string, "text": string, "description": string, "bounding_box": {"x": left,',
    '"y": top, "width": number, "height": number} (in image 1 pixels), "confidence": 0..1, "visual_features":',
    '{"color": string, "shape": string, "icon": string}, "relative_position": string} or null, "intent": string,',
    '"screen_state": string, "nearby_elements": [string]}',
  ].join('\n')
}

export function comparePrompt(intent: string): string {
  return [
    `Image 1 is the EXPECTED screen, recorded right after this test step: "${intent || 'unknown step'}".`,
    'Image 2 is the ACTUAL screen seen during replay of the same step. Decide whether the actual screen is in',
    'the same semantic state (same screen or dialog, same key content and labels). Ignore dynamic details:',
    'clocks, counters, animations, cursors, small shifts of layout, colours or fonts.',
    STRICT,
    'Schema: {"match": boolean, "reason": "one short sentence", "confidence": 0..1}',
  ].join('\n')
}

export function transitionPrompt(): string {
  return [
    'Image 1 is the screen before a click, image 2 the screen after it. Say what transition happened.',
    STRICT,
    'Schema: {"changed": boolean, "transition_type": "scene_change" | "popup_open" | "popup_close" |',
    '"loading_start" | "content_update" | "none", "result_state": string, "success": boolean, "intent": string}',
  ].join('\n')
}

// ---------------------------------------------------------------------------------------------------------
// Parsing: lenient about shapes, strict about types; coordinates mapped back to the original image.

type Dict = Record<string, unknown>
type Scale = { x: number; y: number }

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v)

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v)
  return undefined
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim()
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return undefined
}

function pick(d: Dict, ...keys: string[]): unknown {
  for (const k of keys) if (d[k] !== undefined && d[k] !== null) return d[k]
  return undefined
}

/** The answer's JSON: `data` from non-LLM providers, else extracted from `text`. */
export function answerJson(answer: VisionAnswer): unknown {
  if (answer.data !== undefined) return answer.data
  return extractJson(answer.text ?? '', { provider: answer.provider })
}

function badShape(answer: VisionAnswer, expected: string): VisionError {
  return new VisionError('VISION_BAD_ANSWER', `The "${answer.provider}" vision answer was JSON but not ${expected}.`, {
    hint: 'The raw answer is kept in the report; re-run, or try another model.',
    provider: answer.provider,
    raw: answer.text ?? JSON.stringify(answer.data),
  })
}

function confidence(v: unknown): number | undefined {
  const n = num(v)
  if (n === undefined || n < 0) return undefined
  return n > 1 ? Math.min(1, n / 100) : n
}

/** A box from `{x,y,width,height}`, `{x1,y1,x2,y2}`/`{left,top,right,bottom}` or `[x, y, w, h]`. */
function readBox(v: unknown): { x: number; y: number; width: number; height: number } | undefined {
  if (Array.isArray(v) && v.length === 4) {
    const [x, y, w, h] = v.map(num)
    if (x === undefined || y === undefined || w === undefined || h === undefined) return undefined
    return { x, y, width: w, height: h }
  }
  if (!isDict(v)) return undefined
  const x = num(pick(v, 'x', 'left', 'x1', 'x_min'))
  const y = num(pick(v, 'y', 'top', 'y1', 'y_min'))
  let w = num(pick(v, 'width', 'w'))
  let h = num(pick(v, 'height', 'h'))
  const x2 = num(pick(v, 'right', 'x2', 'x_max'))
  const y2 = num(pick(v, 'bottom', 'y2', 'y_max'))
  if (w === undefined && x !== undefined && x2 !== undefined) w = x2 - x
  if (h === undefined && y !== undefined && y2 !== undefined) h = y2 - y
  if (x === undefined || y === undefined || w === undefined || h === undefined) return undefined
  return { x, y, width: w, height: h }
}

/**
 * One element from model JSON, mapped to original pixels: `orig = answer × scale + offset`. Accepts the
 * the older `{buttons:[…]}` shape too (`x`,`y` = centre, `width`,`height`). Null when it has no usable box.
 */
export function readElement(
  v: unknown,
  scale: Scale,
  offset = { x: 0, y: 0 },
  fallbackType = 'element',
): UiElement | null {
  if (!isDict(v)) return null
  let box = readBox(pick(v, 'bounding_box', 'boundingBox', 'bbox', 'box'))
  if (!box) {
    const cx = num(v.x)
    const cy = num(v.y)
    const w = num(v.width)
    const h = num(v.height)
    if (cx !== undefined && cy !== undefined && w !== undefined && h !== undefined)
      box = { x: cx - w / 2, y: cy - h / 2, width: w, height: h }
  }
  if (!box) return null
  if (box.width < 0) box = { ...box, x: box.x + box.width, width: -box.width }
  if (box.height < 0) box = { ...box, y: box.y + box.height, height: -box.height }
  const bx = Math.round(box.x * scale.x + offset.x)
  const by = Math.round(box.y * scale.y + offset.y)
  const bw = Math.round(box.width * scale.x)
  const bh = Math.round(box.height * scale.y)
  const element: UiElement = {
    type: str(pick(v, 'type', 'element_type', 'role'))?.toLowerCase() ?? fallbackType,
    boundingBox: { x: bx, y: by, width: bw, height: bh },
    center: { x: Math.round(bx + bw / 2), y: Math.round(by + bh / 2) },
  }
  const text = str(pick(v, 'text', 'label', 'name'))
  if (text !== undefined) element.text = text
  const description = str(pick(v, 'description', 'desc'))
  if (description !== undefined) element.description = description
  const c = confidence(v.confidence)
  if (c !== undefined) element.confidence = c
  return element
}

const singular = (key: string) => (key.endsWith('es') && key.length > 4 ? key.slice(0, -2) : key.replace(/s$/, ''))

/** A screen analysis; `{elements:[…]}` or the older `{buttons:[…], texts:[…], …}` shape. */
export function parseScreenAnswer(answer: VisionAnswer, image: { width: number; height: number }): UiAnalysis {
  const json = answerJson(answer)
  if (!isDict(json) && !Array.isArray(json)) throw badShape(answer, 'an object with "elements"')
  const scale = answer.scales?.[0] ?? { x: 1, y: 1 }
  const elements: UiElement[] = []
  const lists: [string, unknown[]][] = Array.isArray(json)
    ? [['elements', json]]
    : Object.entries(json).filter((e): e is [string, unknown[]] => Array.isArray(e[1]))
  if (isDict(json) && !lists.length && !('screen_state' in json || 'screenState' in json || 'state' in json))
    throw badShape(answer, 'an object with "elements"')
  for (const [key, list] of lists) {
    if (key === 'nearby_elements') continue
    const fallbackType = key === 'elements' || key === 'ui_elements' ? 'element' : singular(key)
    for (const item of list) {
      const el = readElement(item, scale, undefined, fallbackType)
      if (el) elements.push(el)
    }
  }
  const result: UiAnalysis = { elements, width: image.width, height: image.height }
  const state = isDict(json) ? str(pick(json, 'screen_state', 'screenState', 'state')) : undefined
  if (state !== undefined) result.screenState = state
  return result
}

export interface ElementAnswer {
  element: UiElement | null
  intent?: string
  screenState?: string
  nearbyElements?: string[]
  visualFeatures?: unknown
  relativePosition?: string
}

/** The element under a click: box in crop pixels (image 1) mapped back with the crop offset. */
export function parseElementAnswer(answer: VisionAnswer, offset: { x: number; y: number }): ElementAnswer {
  const json = answerJson(answer)
  if (!isDict(json)) throw badShape(answer, 'an object with "element"')
  const scale = answer.scales?.[0] ?? { x: 1, y: 1 }
  const raw = 'element' in json ? json.element : json
  const element = readElement(raw, scale, offset)
  if ('element' in json && json.element !== null && !element && !isDict(json.element))
    throw badShape(answer, 'an "element" object')
  const out: ElementAnswer = { element }
  const intent = str(pick(json, 'intent'))
  if (intent !== undefined) out.intent = intent
  const state = str(pick(json, 'screen_state', 'screenState', 'state'))
  if (state !== undefined) out.screenState = state
  const nearby = pick(json, 'nearby_elements', 'nearbyElements')
  if (Array.isArray(nearby))
    out.nearbyElements = nearby
      .map((n) => (isDict(n) ? str(pick(n, 'text', 'label', 'description')) : str(n)))
      .filter((s): s is string => s !== undefined)
  if (isDict(raw)) {
    if (raw.visual_features !== undefined) out.visualFeatures = raw.visual_features
    const rel = str(raw.relative_position)
    if (rel !== undefined) out.relativePosition = rel
  }
  return out
}

export interface CompareResult {
  match: boolean
  reason: string
  confidence?: number
}

function bool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase()
    if (['true', 'yes', 'match', 'same'].includes(s)) return true
    if (['false', 'no', 'mismatch', 'different'].includes(s)) return false
  }
  return undefined
}

export function parseCompareAnswer(answer: VisionAnswer): CompareResult {
  const json = answerJson(answer)
  const match = isDict(json) ? bool(pick(json, 'match', 'matches', 'same')) : undefined
  if (!isDict(json) || match === undefined) throw badShape(answer, 'an object with a boolean "match"')
  const out: CompareResult = {
    match,
    reason: str(pick(json, 'reason', 'explanation')) ?? (match ? 'match' : 'no match'),
  }
  const c = confidence(json.confidence)
  if (c !== undefined) out.confidence = c
  return out
}

export function parseTransitionAnswer(answer: VisionAnswer): ScreenTransition & { intent?: string } {
  const json = answerJson(answer)
  if (!isDict(json)) throw badShape(answer, 'an object with "transition_type"')
  const out: ScreenTransition & { intent?: string } = {}
  const changed = bool(json.changed)
  if (changed !== undefined) out.changed = changed
  const type = str(pick(json, 'transition_type', 'transitionType'))
  if (type !== undefined) out.transitionType = type
  const result = str(pick(json, 'result_state', 'resultState'))
  if (result !== undefined) out.resultState = result
  const success = bool(json.success)
  if (success !== undefined) out.success = success
  const intent = str(json.intent)
  if (intent !== undefined) out.intent = intent
  if (out.changed === undefined && out.transitionType === undefined) throw badShape(answer, 'a transition')
  return out
}
