import { distance } from 'fastest-levenshtein'

const HANGUL_BASE = 0xac00
const HANGUL_LAST = 0xd7a3
const LEAD_BASE = 0x1100
const VOWEL_BASE = 0x1161
const TAIL_BASE = 0x11a7
const VOWELS_TIMES_TAILS = 21 * 28

/** Punctuation, symbols, and every kind of whitespace (Unicode classes), replaced by a single space. */
const SEPARATORS = /[\p{P}\p{S}\p{Z}\s]+/gu

/**
 * Normalises a label for comparison: Unicode NFKC (full-width forms, compatibility jamo, ligatures),
 * lower case, punctuation and symbols dropped, whitespace collapsed and trimmed.
 * `normalizeText(' Sign-In! ')` → `'sign in'`, `normalizeText('ＯＫ')` → `'ok'`.
 */
export function normalizeText(text: string | null | undefined): string {
  if (!text) return ''
  return text.normalize('NFKC').toLowerCase().replace(SEPARATORS, ' ').trim()
}

/**
 * Decomposes precomposed Hangul syllables into conjoining jamo (lead, vowel, optional tail), so that
 * edit distance sees "작" vs "잘" as one jamo apart rather than one whole syllable. Other characters pass.
 */
export function decomposeHangul(text: string): string {
  let out = ''
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0
    if (code < HANGUL_BASE || code > HANGUL_LAST) {
      out += ch
      continue
    }
    const index = code - HANGUL_BASE
    const lead = Math.floor(index / VOWELS_TIMES_TAILS)
    const vowel = Math.floor((index % VOWELS_TIMES_TAILS) / 28)
    const tail = index % 28
    out += String.fromCharCode(LEAD_BASE + lead, VOWEL_BASE + vowel)
    if (tail > 0) out += String.fromCharCode(TAIL_BASE + tail)
  }
  return out
}

/**
 * The comparison key of a label: normalised, spaces removed (Korean spacing varies: "시작 하기" = "시작하기"),
 * Hangul decomposed into jamo. Private-use characters are icon-font glyphs (Font Awesome's search icon is
 * U+F002), which Chromium puts into accessible names from `::before` content: beside words they are dropped
 * (the words are the label a person reads: "\uf0e0 Messages" is "Messages"); alone they are the label, the
 * icon (an envelope is not a star).
 */
export function comparisonKey(text: string | null | undefined): string {
  if (!text) return ''
  // fast path, same result: printable ASCII needs no NFKC and has no Hangul
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(NOT_ALNUM, '')
  const words = text.replace(PRIVATE_USE, '')
  const key = decomposeHangul(normalizeText(words).replace(/ /g, ''))
  if (key !== '' || words === text) return key
  return Array.from(text.matchAll(PRIVATE_USE), (m) => m[0]).join('')
}
const PRIVATE_USE = /\p{Co}/gu
const PRINTABLE_ASCII = /^[\x20-\x7e\t\n\r]*$/
const NOT_ALNUM = /[^a-z0-9]+/g

/**
 * Levenshtein distance with the common prefix and suffix cut off first (the distance is unchanged, and
 * XPaths or ids that share most of their text become short strings for the bit-parallel algorithm).
 */
function trimmedDistance(a: string, b: string): number {
  let start = 0
  const n = Math.min(a.length, b.length)
  while (start < n && a.charCodeAt(start) === b.charCodeAt(start)) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--
    endB--
  }
  if (endA === start) return endB - start
  if (endB === start) return endA - start
  const restA = endA - start
  const restB = endB - start
  if (restA <= SMALL && restB <= SMALL) return smallDistance(a, start, restA, b, restB)
  return distance(start === 0 && endA === a.length ? a : a.slice(start, endA), b.slice(start, endB))
}

/** Longest remainder (after the common prefix/suffix cut) handled by the allocation-free DP below. */
const SMALL = 16
const ROW = new Int32Array(SMALL + 1)

/** Levenshtein distance of a[from, from+n) and b[from, from+m) by the textbook DP on one reused row. */
function smallDistance(a: string, from: number, n: number, b: string, m: number): number {
  for (let j = 0; j <= m; j++) ROW[j] = j
  for (let i = 1; i <= n; i++) {
    let diag = ROW[0] as number
    ROW[0] = i
    const ca = a.charCodeAt(from + i - 1)
    for (let j = 1; j <= m; j++) {
      const up = ROW[j] as number
      const cost = ca === b.charCodeAt(from + j - 1) ? 0 : 1
      const v = Math.min(up + 1, (ROW[j - 1] as number) + 1, diag + cost)
      diag = up
      ROW[j] = v
    }
  }
  return ROW[m] as number
}

/** Shortest contained key (in jamo/letters) that earns the containment score; shorter keys ("ok", "x") do not. */
const MIN_CONTAINED_LENGTH = 3

/**
 * Similarity of two comparison keys (see `comparisonKey`) in [0, 1]: the larger of
 * - 1 − Levenshtein distance / longer length, and
 * - when the shorter key (≥ 3 units) occurs inside the longer one, 0.6 + 0.4 · shorter / longer
 *   ("시작" inside "시작하기" → 0.82; a bare edit distance would say 0.56).
 */
export function keySimilarity(a: string, b: string): number {
  if (a === b) return 1
  if (a.length === 0 || b.length === 0) return 0
  const aShorter = a.length <= b.length
  const short = aShorter ? a : b
  const long = aShorter ? b : a
  const edit = 1 - trimmedDistance(a, b) / long.length
  const contained =
    short.length >= MIN_CONTAINED_LENGTH && long.includes(short) ? 0.6 + (0.4 * short.length) / long.length : 0
  return Math.min(1, Math.max(0, edit, contained))
}

/**
 * How alike two UI labels are, in [0, 1]: symmetric, 1 for strings equal after normalisation (NFKC, case,
 * punctuation, whitespace), 0 when exactly one is empty. Hangul is compared jamo by jamo.
 *
 * textSimilarity('Sign in', 'Sign In') = 1 · textSimilarity('Sign in', 'Log in') = 0.5 ·
 * textSimilarity('시작하기', '시작') ≈ 0.82 · textSimilarity('확인', '취소') = 0.4
 */
export function textSimilarity(a: string | null | undefined, b: string | null | undefined): number {
  return keySimilarity(comparisonKey(a), comparisonKey(b))
}
