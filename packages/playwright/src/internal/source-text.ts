/**
 * The one rule for generated code: a string that came from a case or a recorded page (a case name, a test id, typed
 * text, a URL, an assertion's expected value) reaches a generated spec only as a string literal or inside a one-line
 * comment that it cannot end. Nothing else of it is ever spliced into code.
 */

/**
 * A single-quoted JavaScript string literal that evaluates to exactly `value`: quotes and backslashes escaped, every
 * control character, line or paragraph separator (U+2028, U+2029) and lone surrogate written as an escape, so the
 * literal stays on its line and survives any encoding of the file.
 */
export function jsString(value: string): string {
  let out = "'"
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    const char = value[i]!
    if (char === "'") out += "\\'"
    else if (char === '\\') out += '\\\\'
    else if (char === '\n') out += '\\n'
    else if (char === '\r') out += '\\r'
    else if (char === '\t') out += '\\t'
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029)
      out += unicodeEscape(code)
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += char + value[i + 1]
        i++
      } else out += unicodeEscape(code)
    } else if (code >= 0xdc00 && code <= 0xdfff) out += unicodeEscape(code)
    else out += char
  }
  return `${out}'`
}

const unicodeEscape = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`

/** Whether the UTF-16 unit at `i` may stand in a one-line comment: no control character, separator or lone surrogate. */
function fitsInAComment(value: string, i: number): boolean {
  const code = value.charCodeAt(i)
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) return false
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = value.charCodeAt(i + 1)
    return next >= 0xdc00 && next <= 0xdfff
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = value.charCodeAt(i - 1)
    return previous >= 0xd800 && previous <= 0xdbff
  }
  return true
}

/**
 * Text for a `//` comment: one line whatever it holds. Line breaks, other control characters, separators and lone
 * surrogates become spaces, runs of spaces one space, and it is cut to `maxLength` characters.
 */
export function commentText(value: string, maxLength = 80): string {
  let kept = ''
  for (let i = 0; i < value.length; i++) kept += fitsInAComment(value, i) ? value[i] : ' '
  const oneLine = kept.replace(/\s+/g, ' ').trim()
  const chars = Array.from(oneLine)
  return chars.length > maxLength ? `${chars.slice(0, maxLength - 1).join('')}…` : oneLine
}

/** A number for code: the value when it is a finite number, else `fallback`. */
export function jsNumber(value: unknown, fallback = 0): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : String(fallback)
}
