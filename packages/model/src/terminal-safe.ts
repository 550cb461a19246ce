/**
 * Whether a code point is shown escaped on a terminal: C0 controls (but line feed and tab), DEL, C1 controls, and
 * the bidirectional overrides and isolates that reorder what follows them.
 */
function isUnsafe(code: number, keepLineBreaks: boolean): boolean {
  if (code === 0x09 || (code === 0x0a && keepLineBreaks)) return false
  if (code < 0x20 || code === 0x7f) return true
  if (code >= 0x80 && code <= 0x9f) return true
  if (code >= 0x202a && code <= 0x202e) return true
  if (code >= 0x2066 && code <= 0x2069) return true
  return false
}

/**
 * Text from a case, a report or a page as a terminal may print it: every control character (an ESC that starts a
 * colour, a title or a cursor move; a carriage return that overwrites the line; a bidi override) shown escaped as
 * `\x1b` or `\u202e`, everything else kept (Hangul, emoji, tabs, and line breaks unless `keepLineBreaks` is false:
 * one line of a report stays one line). Pure.
 */
export function terminalSafe(text: string, opts: { keepLineBreaks?: boolean } = {}): string {
  const keepLineBreaks = opts.keepLineBreaks ?? true
  let out = ''
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (!isUnsafe(code, keepLineBreaks)) continue
    out += text.slice(from, i)
    out += code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
    from = i + 1
  }
  return from === 0 ? text : out + text.slice(from)
}
