/** Escapes text for HTML element content and double-quoted attribute values. */
export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** JSON that is safe inside an inline <script> (no `</script>`, no U+2028/2029 surprises). */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** `btn btn-primary` → `.btn.btn-primary` */
export function sel(classAttr: string): string {
  return classAttr
    .split(/\s+/)
    .filter(Boolean)
    .map((c) => `.${c}`)
    .join('')
}

/**
 * The ground-truth marker. The page script moves it into a WeakMap and removes the attribute before
 * the document finishes parsing, so a tool looking at the live DOM never sees it.
 */
export function truth(id: string): string {
  return ` data-t="${esc(id)}"`
}
