import { createRequire } from 'node:module'

/**
 * The X server's keyboard layout as the core protocol reports it (GetKeyboardMapping), read once per recording or
 * replay: which character each key types with Shift and with AltGr (ISO_Level3_Shift), so that typing is recorded
 * as the characters a person saw and replayed as the keys that type them on this layout (`@` is Shift+2 on a US
 * layout and AltGr+Q on a German one). Pure apart from the keysym table, loaded on first use.
 */
export interface Keymap {
  /** Keysyms of group 1, levels 1–4 (none, Shift, AltGr, Shift+AltGr), per X keycode; 0 = none. */
  levels: ReadonlyMap<number, readonly [number, number, number, number]>
  /** A key that holds Shift (Shift_L), or null. */
  shiftKeycode: number | null
  /** The AltGr key (ISO_Level3_Shift; the right Alt key when it is AltGr), or null when the layout has none. */
  levelThreeKeycode: number | null
}

/** One key stroke: the key, and the modifiers held while it is tapped. */
export interface KeyStroke {
  keycode: number
  shift: boolean
  levelThree: boolean
}

export type KeyTypingStep = { kind: 'keys'; strokes: KeyStroke[] } | { kind: 'paste'; text: string }

const XK_SHIFT_L = 0xffe1
const XK_ISO_LEVEL3_SHIFT = 0xfe03
const XK_RETURN = 0xff0d
const XK_TAB = 0xff09
/** The right Alt key's keycode under evdev (`<RALT>`): the AltGr key a person presses when the layout has one. */
const RALT_KEYCODE = 108

/**
 * A keymap from the core keyboard mapping: `rows[i]` are the keysyms of keycode `minKeycode + i`, in the core
 * protocol's XKB order (group 1 level 1, level 2, group 2 level 1, level 2, group 1 level 3, level 4, …). Pure.
 */
export function keymapFromCore(minKeycode: number, rows: readonly (readonly number[])[]): Keymap {
  const levels = new Map<number, [number, number, number, number]>()
  let shiftKeycode: number | null = null
  const levelThree: number[] = []
  rows.forEach((row, i) => {
    const keycode = minKeycode + i
    const l1 = row[0] ?? 0
    let l2 = row[1] ?? 0
    const l3 = row[4] ?? 0
    const l4 = row[5] ?? 0
    // a letter listed once types its capital with Shift (the core protocol's rule for a lone alphabetic keysym)
    if (l2 === 0 && l1 !== 0) {
      const ch = keysymChar(l1)
      if (ch && ch.toLowerCase() === ch && ch.toUpperCase() !== ch && Array.from(ch.toUpperCase()).length === 1) {
        l2 = keysymOfChar(ch.toUpperCase()) ?? 0
      } else l2 = l1
    }
    if (l1 === 0 && l2 === 0 && l3 === 0 && l4 === 0) return
    levels.set(keycode, [l1, l2, l3, l4])
    if (l1 === XK_SHIFT_L && shiftKeycode === null) shiftKeycode = keycode
    if (l1 === XK_ISO_LEVEL3_SHIFT) levelThree.push(keycode)
  })
  return {
    levels,
    shiftKeycode,
    levelThreeKeycode: levelThree.includes(RALT_KEYCODE) ? RALT_KEYCODE : (levelThree[0] ?? null),
  }
}

interface KeysymRecord {
  keysym: number
  unicode: number
  status: string
  names: string[]
}
interface KeysymTable {
  fromKeysym(keysym: number): KeysymRecord | undefined
  fromUnicode(code: number): KeysymRecord[]
}
let table: KeysymTable | null = null
const keysymTable = (): KeysymTable => {
  table ??= createRequire(import.meta.url)('keysym') as KeysymTable
  return table
}

/** The character a keysym types (`0x40` → `@`, `Greek_OMEGA` → `Ω`, `U+D55C` keysyms → `한`), or null. Pure. */
export function keysymChar(keysym: number): string | null {
  if (keysym === XK_RETURN) return '\n'
  if (keysym === XK_TAB) return '\t'
  if ((keysym >= 0x20 && keysym <= 0x7e) || (keysym >= 0xa0 && keysym <= 0xff)) return String.fromCodePoint(keysym)
  if (keysym >= 0x1000100 && keysym <= 0x110ffff) return String.fromCodePoint(keysym - 0x1000000)
  const rec = keysymTable().fromKeysym(keysym)
  // status "f" marks function keys and dead keys: they type nothing by themselves
  return rec && rec.status !== 'f' && rec.unicode >= 0x20 && rec.unicode !== 0x7f
    ? String.fromCodePoint(rec.unicode)
    : null
}

/** The combining mark a dead key puts on the next character (`dead_acute` → U+0301), or null. Pure. */
export function deadKeyMark(keysym: number): string | null {
  if (keysym < 0xfe50 || keysym > 0xfe8f) return null
  const rec = keysymTable().fromKeysym(keysym)
  return rec && rec.unicode >= 0x300 && rec.unicode <= 0x36f ? String.fromCodePoint(rec.unicode) : null
}

/** A keysym that types the character (the Latin-1 value, a legacy keysym, or the Unicode keysym). Pure. */
function keysymOfChar(ch: string): number | null {
  const cp = ch.codePointAt(0) as number
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp
  const legacy = keysymTable()
    .fromUnicode(cp)
    .find((r) => r.status !== 'f')
  return legacy ? legacy.keysym : 0x1000000 + cp
}

/** The spacing form of a combining mark (what a dead key followed by Space types): U+0302 → `^`. */
const SPACING: Record<string, string> = {
  '\u0300': '`',
  '\u0301': '´',
  '\u0302': '^',
  '\u0303': '~',
  '\u0304': '¯',
  '\u0306': '˘',
  '\u0307': '˙',
  '\u0308': '¨',
  '\u030a': '°',
  '\u030b': '˝',
  '\u030c': 'ˇ',
  '\u0327': '¸',
  '\u0328': '˛',
}

/** What a key types on this keymap with these modifiers: a character, a dead key's mark, or nothing. Pure. */
export function keyOutput(
  keymap: Keymap,
  keycode: number,
  mods: { shift: boolean; levelThree: boolean },
): { char: string } | { deadMark: string } | null {
  const syms = keymap.levels.get(keycode)
  if (!syms) return null
  const level = (mods.shift ? 1 : 0) + (mods.levelThree ? 2 : 0)
  // a two-level key types its own levels with AltGr held (the X server ignores a modifier its key type lacks)
  const twoLevel = !syms[2] && !syms[3]
  const sym = twoLevel ? syms[level & 1] : level === 3 ? syms[3] || syms[2] : syms[level]
  if (!sym) return null
  const mark = deadKeyMark(sym)
  if (mark) return { deadMark: mark }
  const char = keysymChar(sym)
  return char ? { char } : null
}

/**
 * What a dead key followed by a character types (X's compose rules for the common cases): Space gives the
 * accent itself (`^`), a letter that takes the accent its precomposed form (`é`), anything else the accent and
 * the character. Pure.
 */
export function composeDeadKey(mark: string, next: string): string {
  const spacing = SPACING[mark] ?? mark
  if (next === ' ') return spacing
  const composed = `${next}${mark}`.normalize('NFC')
  return Array.from(composed).length === 1 ? composed : `${spacing}${next}`
}

/** How to type one character on this keymap, or null when no key (nor dead key + key) types it. Pure. */
export function strokesOfChar(keymap: Keymap, ch: string): KeyStroke[] | null {
  const direct = directStroke(keymap, ch)
  if (direct) return [direct]
  // a dead key and Space (`^` on a German layout), or a dead key and the base letter (`é`)
  const decomposed = Array.from(ch.normalize('NFD'))
  const [base, mark, ...more] = decomposed
  const spacingOf = Object.entries(SPACING).find(([, s]) => s === ch)?.[0]
  const tries: [string, string][] = []
  if (spacingOf) tries.push([spacingOf, ' '])
  if (base && mark && more.length === 0) tries.push([mark, base])
  for (const [m, next] of tries) {
    const dead = deadStroke(keymap, m)
    const after = directStroke(keymap, next)
    if (dead && after) return [dead, after]
  }
  return null
}

/** Strokes ranked: no modifier first, then Shift, AltGr, Shift+AltGr; the lowest keycode among equals. */
function directStroke(keymap: Keymap, ch: string): KeyStroke | null {
  return findStroke(keymap, (out) => 'char' in out && out.char === ch)
}

function deadStroke(keymap: Keymap, mark: string): KeyStroke | null {
  return findStroke(keymap, (out) => 'deadMark' in out && out.deadMark === mark)
}

function findStroke(
  keymap: Keymap,
  wanted: (out: { char: string } | { deadMark: string }) => boolean,
): KeyStroke | null {
  for (let level = 0; level < 4; level++) {
    const shift = (level & 1) === 1
    const levelThree = (level & 2) === 2
    if (shift && keymap.shiftKeycode === null) continue
    if (levelThree && keymap.levelThreeKeycode === null) continue
    for (const [keycode, syms] of keymap.levels) {
      if (!syms[level]) continue // only a key that has this level itself (not one falling back to a lower level)
      if (isKeypadKey(syms)) continue // keypad keys follow NumLock, not Shift
      const out = keyOutput(keymap, keycode, { shift, levelThree })
      if (out && wanted(out)) return { keycode, shift, levelThree }
    }
  }
  return null
}

/** Keypad keysyms (KP_0…KP_9, KP_Decimal, …) live in 0xff80–0xffbd. */
function isKeypadKey(syms: readonly number[]): boolean {
  return syms.some((s) => s >= 0xff80 && s <= 0xffbd)
}

/**
 * A text as runs of key strokes on this keymap and of clipboard pastes (characters no key types: Hangul without an
 * input method, emoji), in order. Pure.
 */
export function planKeyTyping(keymap: Keymap, text: string): KeyTypingStep[] {
  const steps: KeyTypingStep[] = []
  for (const ch of Array.from(text.replace(/\r\n?/g, '\n'))) {
    const strokes = strokesOfChar(keymap, ch)
    const last = steps[steps.length - 1]
    if (strokes) {
      if (last?.kind === 'keys') last.strokes.push(...strokes)
      else steps.push({ kind: 'keys', strokes: [...strokes] })
    } else if (last?.kind === 'paste') last.text += ch
    else steps.push({ kind: 'paste', text: ch })
  }
  return steps
}
