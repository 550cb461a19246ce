/**
 * What the toolbar's parts listen to, and how they reach Node. Page code: bundled into the page functions (see
 * `page-bundle.generated.ts`), imports page code only.
 */

/** A press, release or click: an assert mode's pick, and what waits while the editor is open. */
export const PICK_EVENTS = new Set([
  'pointerdown',
  'pointerup',
  'mousedown',
  'mouseup',
  'click',
  'dblclick',
  'auxclick',
])

/** A key or what typing does: what waits while the editor is open. */
export const KEY_EVENTS = new Set(['keydown', 'keyup', 'keypress', 'beforeinput', 'input', 'change'])

/** Every event the toolbar's capture listeners take first. */
export const LISTENED = [...PICK_EVENTS, 'contextmenu', ...KEY_EVENTS]

/** Sends a request to Node through the page binding (nothing when the binding is gone). */
export const callBinding =
  (binding: string) =>
  (request: unknown): void => {
    const fn = (window as unknown as Record<string, ((r: unknown) => void) | undefined>)[binding]
    if (typeof fn === 'function') fn(request)
  }
