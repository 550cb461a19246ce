/**
 * How a text is typed on the desktop, decided purely: characters a US keyboard types become key strokes (nut-js
 * Key names) with Shift held where the layout needs it (`*` is Shift+8, `(` is Shift+9); anything else (Hangul,
 * accented letters, emoji) is pasted from the clipboard, as a person without that input method would.
 * The fallback when the display's own layout cannot be read (no X protocol client): `planKeyTyping` of ./keymap
 * plans by the real layout, AltGr included.
 */
export type TypeStep = { kind: 'keys'; keys: { key: string; shift: boolean }[] } | { kind: 'paste'; text: string }

const UNSHIFTED: Record<string, string> = {
  ' ': 'Space',
  '\n': 'Return', // the main key (XK_Return); nut-js Enter is the keypad's
  '\t': 'Tab',
  '-': 'Minus',
  '=': 'Equal',
  '[': 'LeftBracket',
  ']': 'RightBracket',
  '\\': 'Backslash',
  ';': 'Semicolon',
  "'": 'Quote',
  ',': 'Comma',
  '.': 'Period',
  '/': 'Slash',
  '`': 'Grave',
}

const SHIFTED: Record<string, string> = {
  '!': 'Num1',
  '@': 'Num2',
  '#': 'Num3',
  $: 'Num4',
  '%': 'Num5',
  '^': 'Num6',
  '&': 'Num7',
  '*': 'Num8',
  '(': 'Num9',
  ')': 'Num0',
  _: 'Minus',
  '+': 'Equal',
  '{': 'LeftBracket',
  '}': 'RightBracket',
  '|': 'Backslash',
  ':': 'Semicolon',
  '"': 'Quote',
  '<': 'Comma',
  '>': 'Period',
  '?': 'Slash',
  '~': 'Grave',
}

/** The key stroke of one character on a US layout, or null when it has none. Pure. */
export function keyStrokeOf(ch: string): { key: string; shift: boolean } | null {
  if (/^[a-z]$/.test(ch)) return { key: ch.toUpperCase(), shift: false }
  if (/^[A-Z]$/.test(ch)) return { key: ch, shift: true }
  if (/^[0-9]$/.test(ch)) return { key: `Num${ch}`, shift: false }
  if (UNSHIFTED[ch]) return { key: UNSHIFTED[ch] as string, shift: false }
  if (SHIFTED[ch]) return { key: SHIFTED[ch] as string, shift: true }
  return null
}

/** A text as runs of key strokes and of clipboard pastes, in order. Pure. */
export function planTyping(text: string): TypeStep[] {
  const steps: TypeStep[] = []
  for (const ch of Array.from(text.replace(/\r\n?/g, '\n'))) {
    const stroke = keyStrokeOf(ch)
    const last = steps[steps.length - 1]
    if (stroke) {
      if (last?.kind === 'keys') last.keys.push(stroke)
      else steps.push({ kind: 'keys', keys: [stroke] })
    } else if (last?.kind === 'paste') last.text += ch
    else steps.push({ kind: 'paste', text: ch })
  }
  return steps
}
