import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { composeDeadKey, type Keymap, keymapFromCore, keyOutput, planKeyTyping, strokesOfChar } from './keymap'
import { createLayoutReader } from './uiohook-input'

/** Core keyboard mappings read from a real X server (Xvfb after `setxkbmap de|us|fr`, test/fixtures). */
const layout = (name: string): Keymap => {
  const raw = JSON.parse(readFileSync(join(__dirname, `../test/fixtures/keymap-${name}.json`), 'utf8'))
  return keymapFromCore(raw.minKeycode, raw.rows)
}
const de = layout('de')
const us = layout('us')
const fr = layout('fr')
const PRINTABLE_ASCII = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i))

// X keycodes (evdev) of the keys named, as engraved on a German keyboard
const Q = 24
const E = 26
const KEY_7 = 16
const KEY_8 = 17
const KEY_9 = 18
const KEY_0 = 19
const SZ = 20 // ß ? \
const PLUS = 35 // + * ~
const LESS = 94 // < > |
const CIRCUMFLEX = 49 // ^ °, a dead key
const ACUTE = 21 // ´ `, dead keys
const Y_DE = 29 // the US layout's Y key types z on a German layout
const SPACE = 65

const altGr = (keycode: number) => ({ keycode, shift: false, levelThree: true })
const plain = (keycode: number) => ({ keycode, shift: false, levelThree: false })
const shifted = (keycode: number) => ({ keycode, shift: true, levelThree: false })

describe('keymapFromCore', () => {
  it('finds Shift and AltGr (the right Alt key as ISO_Level3_Shift) on a German layout, no AltGr on US', () => {
    expect(de.shiftKeycode).toBe(50)
    expect(de.levelThreeKeycode).toBe(108)
    expect(us.levelThreeKeycode).not.toBe(108)
  })
})

describe('strokesOfChar on a German layout', () => {
  it('types @ { [ ] } \\ ~ | with AltGr, as a German keyboard is engraved', () => {
    expect(strokesOfChar(de, '@')).toEqual([altGr(Q)])
    expect(strokesOfChar(de, '{')).toEqual([altGr(KEY_7)])
    expect(strokesOfChar(de, '[')).toEqual([altGr(KEY_8)])
    expect(strokesOfChar(de, ']')).toEqual([altGr(KEY_9)])
    expect(strokesOfChar(de, '}')).toEqual([altGr(KEY_0)])
    expect(strokesOfChar(de, '\\')).toEqual([altGr(SZ)])
    expect(strokesOfChar(de, '~')).toEqual([altGr(PLUS)])
    expect(strokesOfChar(de, '|')).toEqual([altGr(LESS)])
    expect(strokesOfChar(de, '€')).toEqual([altGr(E)])
  })

  it('types z on the key a US keyboard calls Y, and * with Shift on the + key', () => {
    expect(strokesOfChar(de, 'z')).toEqual([plain(Y_DE)])
    expect(strokesOfChar(de, '*')).toEqual([shifted(PLUS)])
  })

  it('types ^ and ` with a dead key and Space, é with a dead key and e', () => {
    expect(strokesOfChar(de, '^')).toEqual([plain(CIRCUMFLEX), plain(SPACE)])
    expect(strokesOfChar(de, '`')).toEqual([shifted(ACUTE), plain(SPACE)])
    expect(strokesOfChar(de, 'é')).toEqual([plain(ACUTE), plain(E)])
  })

  it('pastes what no key types (Hangul without an input method)', () => {
    expect(planKeyTyping(de, 'a한글b')).toEqual([
      { kind: 'keys', strokes: [plain(38)] },
      { kind: 'paste', text: '한글' },
      { kind: 'keys', strokes: [plain(56)] },
    ])
  })
})

describe('composeDeadKey', () => {
  it('gives the accent before Space, the precomposed letter before a letter that takes it, else both', () => {
    expect(composeDeadKey('\u0302', ' ')).toBe('^')
    expect(composeDeadKey('\u0301', 'e')).toBe('é')
    expect(composeDeadKey('\u0302', 'x')).toBe('^x')
  })
})

/** What the recorder reads when the strokes are pressed, through the same layout. */
function recordStrokes(keymap: Keymap, strokes: { keycode: number; shift: boolean; levelThree: boolean }[]): string {
  const reader = createLayoutReader(keymap)
  let text = ''
  const RIGHT_ALT = 3640
  for (const s of strokes) {
    if (s.levelThree) reader.read(RIGHT_ALT, true, s.shift)
    const got = reader.read(s.keycode - 8, true, s.shift)
    reader.read(s.keycode - 8, false, s.shift)
    if (s.levelThree) reader.read(RIGHT_ALT, false, s.shift)
    expect(got.alt, `AltGr is no Alt shortcut (${s.keycode})`).toBe(false)
    if (got.char) text += got.char
  }
  return text
}

describe('every printable ASCII character, recorded and replayed on the same layout', () => {
  it.each([
    ['us', us],
    ['de', de],
    ['fr', fr],
  ])('%s: each character has key strokes, and the recorder reads them back as that character', (_name, keymap) => {
    for (const ch of PRINTABLE_ASCII) {
      const strokes = strokesOfChar(keymap, ch)
      expect(strokes, ch).not.toBeNull()
      expect(recordStrokes(keymap, strokes ?? []), ch).toBe(ch)
    }
  })

  test.prop(
    [fc.constantFrom(us, de, fr), fc.string({ unit: fc.constantFrom(...PRINTABLE_ASCII, 'é', 'ü', 'ß', '€') })],
    {
      numRuns: 200,
    },
  )('a text typed as planned reads back as the same text (record ∘ replay = id)', (keymap, text) => {
    const steps = planKeyTyping(keymap, text)
    const back = steps.map((s) => (s.kind === 'paste' ? s.text : recordStrokes(keymap, s.strokes))).join('')
    expect(back).toBe(text)
  })
})

describe('keyOutput', () => {
  it('a two-level key ignores AltGr, as the X server does (AltGr+a is a on a German layout)', () => {
    expect(keyOutput(de, 38, { shift: false, levelThree: true })).toEqual({ char: 'æ' })
    expect(keyOutput(us, 38, { shift: false, levelThree: true })).toEqual({ char: 'a' })
  })
})
