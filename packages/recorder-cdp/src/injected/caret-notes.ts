import { frameOffset } from './geometry'

/**
 * Where the input reporter keeps, in each frame, where the text caret was drawn and since when (`Symbol.for` of
 * this key on the frame's window: the last 50 notes, `CaretNote`). A screencast frame shows the caret in whatever
 * phase of its blink it was, and a replay's screenshot never shows it (Playwright hides it): the recorder lists the
 * caret's place at the frame's moment as an unknown region of the recorded screenshot, compared in neither image.
 */
export const CARET_NOTES_KEY = 'qa.recorder.carets'

/** A box in the top-level viewport's CSS pixels. */
export interface CaretBox {
  x: number
  y: number
  width: number
  height: number
}

/** From `at` (ms since the epoch) the caret was drawn in `box`, or nowhere (`null`: no focused text, a selection). */
export interface CaretNote {
  at: number
  box: CaretBox | null
}

/** Input types whose field draws a text caret. */
const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number'])
/** Half the width noted around the caret's x: its own pixel or two, and what text measuring misses (kerning). */
const CARET_HALF_WIDTH = 3

const px = (value: string) => Number.parseFloat(value) || 0

/** The focused element, through open shadow roots. */
function focusedElement(): Element | null {
  let el: Element | null = document.activeElement
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
  return el
}

let measuring: CanvasRenderingContext2D | null = null
/** The width of `text` in the field's font (a canvas that never enters the page's DOM). */
function textWidth(text: string, style: CSSStyleDeclaration): number {
  measuring ??= document.createElement('canvas').getContext('2d')
  if (!measuring) return 0
  measuring.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
  const spacing = style.letterSpacing === 'normal' ? 0 : px(style.letterSpacing)
  return measuring.measureText(text).width + spacing * [...text].length
}

/**
 * The caret's box in a text field: x from the width of the text before it in the field's font, less the field's
 * scroll; y the line it is on (a textarea's hard lines; soft wraps are not followed) or a single line's content box.
 */
function fieldCaretBox(el: HTMLInputElement | HTMLTextAreaElement, at: number): CaretBox | null {
  const r = el.getBoundingClientRect()
  if (r.width <= 0 || r.height <= 0) return null
  const style = getComputedStyle(el)
  const left = r.left + px(style.borderLeftWidth) + px(style.paddingLeft)
  const top = r.top + px(style.borderTopWidth) + px(style.paddingTop)
  const right = r.right - px(style.borderRightWidth) - px(style.paddingRight)
  const bottom = r.bottom - px(style.borderBottomWidth) - px(style.paddingBottom)
  // a password field draws a bullet per character
  const shown = el.type === 'password' ? '•'.repeat(el.value.length) : el.value
  const lines = shown.slice(0, at).split('\n')
  const line = lines[lines.length - 1] ?? ''
  let x = left + textWidth(line, style) - el.scrollLeft
  if (el instanceof HTMLInputElement && (style.textAlign === 'center' || style.textAlign === 'right')) {
    const free = right - left - textWidth(shown, style)
    x += style.textAlign === 'center' ? free / 2 : free
  }
  const lineHeight = style.lineHeight === 'normal' ? px(style.fontSize) * 1.25 : px(style.lineHeight)
  const y = el instanceof HTMLTextAreaElement ? top + (lines.length - 1) * lineHeight - el.scrollTop : top
  const height = el instanceof HTMLTextAreaElement ? lineHeight : bottom - top
  const box = { x: Math.max(r.left, x - CARET_HALF_WIDTH), y: Math.max(r.top, y), width: 0, height: 0 }
  box.width = Math.min(r.right, x + CARET_HALF_WIDTH) - box.x
  box.height = Math.min(r.bottom, y + height) - box.y
  return box.width > 0 && box.height > 0 ? box : null
}

/** Where this frame's focused element draws its text caret now (viewport CSS pixels of this frame), or null. */
export function caretBoxInPage(): CaretBox | null {
  const el = focusedElement()
  if (!el) return null
  if (el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(el.type))) {
    // a number field answers no selection; its caret is after what was typed
    let start: number | null = null
    let end: number | null = null
    try {
      start = el.selectionStart
      end = el.selectionEnd
    } catch {
      // a type without a selection API
    }
    if (start !== end) return null
    return fieldCaretBox(el, end ?? el.value.length)
  }
  if (!(el instanceof HTMLElement) || !el.isContentEditable) return null
  const selection = getSelection()
  if (!selection?.rangeCount || !selection.isCollapsed) return null
  const rect = selection.getRangeAt(0).getClientRects()[0]
  if (!rect) return null
  return { x: rect.left - CARET_HALF_WIDTH, y: rect.top, width: 2 * CARET_HALF_WIDTH, height: rect.height }
}

/**
 * Notes where the caret is each time it may have moved (focus, typing, keys, pointer, selection), in the top-level
 * viewport when this frame reaches it; a frame below a cross-origin parent notes nothing (its viewport is not the
 * screenshot's).
 */
export function installCaretNotesInPage(): void {
  const key = Symbol.for(CARET_NOTES_KEY)
  const notes: CaretNote[] = []
  Object.defineProperty(window, key, { configurable: true, value: notes })
  const note = () => {
    try {
      const { dx, dy, top } = frameOffset(window)
      if (!top) return
      const box = caretBoxInPage()
      const last = notes[notes.length - 1]
      const moved = box ? { ...box, x: box.x + dx, y: box.y + dy } : null
      if (last && JSON.stringify(last.box) === JSON.stringify(moved)) return
      notes.push({ at: Date.now(), box: moved })
      if (notes.length > 50) notes.shift()
    } catch {
      // a page in the middle of replacing its document: the next note will do
    }
  }
  // after the event's own effect (the focus moved, the character is in), and once the page's handlers ran
  const soon = () => {
    note()
    setTimeout(note, 0)
  }
  for (const type of ['focusin', 'focusout', 'input', 'keyup', 'keydown', 'pointerup', 'scroll'])
    addEventListener(type, soon, { capture: true, passive: true })
  document.addEventListener('selectionchange', soon, { passive: true })
}
