import { ARIA_NAME_FROM_CONTENT_ROLES, type ElementIdentity } from '@qa/model'
import type { CandidateElement } from '../score-candidate'
import { placeDistance } from '../image/geometry'
import { comparisonKey, keySimilarity } from './text-similarity'
import { areRewordedPhrases, SYNONYM_AGREEMENT } from './ui-vocabulary'

/**
 * Default floor of the label check (0.5): a structural hit whose label agrees less than this with the
 * recorded label is not the element the user clicked. Tuned on bench/matcher: 'Sign in' → 'Log in' (0.5),
 * 'Save' → 'Save changes' (0.75) and 로그인 → 로그인하기 (0.85) pass; 로그인 → 임시 저장 (0.1) does not.
 */
export const DEFAULT_MIN_LABEL_SCORE = 0.5

/**
 * Default context floor (0.3) for a unique hit of a lookup that is not a deliberate identifier: an element
 * with the recorded label but other neighbours, far from the recorded place and without the recorded id is
 * another element with the same label (a second "Delete" in another row), not the target.
 */
export const DEFAULT_MIN_CONTEXT_SCORE = 0.3

/**
 * Agreement of a label that is the recorded one with a qualifier put in front of it ('임시 저장' for '저장',
 * 'Quick save' or 'Autosave' for 'Save'): the qualifier names a different action, so it counts as a
 * disagreement. Words added after the label ('로그인하기', 'Save changes') are a rewording and keep the
 * containment score of `keySimilarity`.
 */
export const QUALIFIED_LABEL_AGREEMENT = 0.3

/**
 * Below this label agreement (0.6) a candidate whose own non-generated id is unrelated to the recorded one
 * (id similarity < 0.5) is rejected: two weak signals against it.
 */
export const WEAK_LABEL_AGREEMENT = 0.6

/** Shortest key (in letters/jamo) for which containment is judged; shorter keys use the edit distance. */
const MIN_CONTAINED = 3

/**
 * How well two label keys (`comparisonKey`) agree, in [0, 1]: `keySimilarity` except for a leading
 * qualifier, and at least `SYNONYM_AGREEMENT` for two phrases of one action (`UI_ACTION_SYNONYMS`).
 */
export function labelKeyAgreement(a: string, b: string): number {
  if (a === b) return 1
  if (a.length === 0 || b.length === 0) return 0
  const synonym = areRewordedPhrases(a, b) ? SYNONYM_AGREEMENT : 0
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  const similarity = keySimilarity(a, b)
  if (short.length >= MIN_CONTAINED && !long.startsWith(short) && long.includes(short))
    return Math.max(synonym, Math.min(QUALIFIED_LABEL_AGREEMENT, similarity))
  // Letters in common are not a word in common: "Private" and "Duplicate" share a, t, e (0.56), "Private"
  // and "Print" p, r, i (0.57). Below a spelling variant's similarity, the labels must share one run of
  // letters at least half the longer one ("add to cart" / "add to bag", 임시 저장 / 임시 보관).
  if (similarity < SPELLING_VARIANT_SIMILARITY && !long.includes(short)) {
    const run = longestCommonRun(a, b)
    if (2 * run < long.length) return Math.max(synonym, Math.min(similarity, run / long.length))
  }
  return Math.max(synonym, similarity)
}

/** Edit similarity of a spelling variant of one label ('Colour' / 'Color' 0.83, 'Cancel' / 'Canceled' 0.75). */
const SPELLING_VARIANT_SIMILARITY = 0.75

/** Length of the longest run of characters both keys contain (longest common substring). */
function longestCommonRun(a: string, b: string): number {
  let best = 0
  let prev = new Uint16Array(b.length + 1)
  let row = new Uint16Array(b.length + 1)
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const v = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? (prev[j - 1] as number) + 1 : 0
      row[j] = v
      if (v > best) best = v
    }
    ;[prev, row] = [row, prev]
  }
  return best
}

/**
 * Roles whose accessible name comes from their content (WAI-ARIA 1.2 "name from: contents", the list the page's
 * accessible name uses too), and roles of text a person reads as what the element is (a paragraph, a list item);
 * other roles (toolbar, list, region, textbox, …) are not labelled by the text they hold.
 */
export const NAME_FROM_CONTENT_ROLES: ReadonlySet<string> = new Set([
  ...ARIA_NAME_FROM_CONTENT_ROLES,
  // Chromium's role of a <label>: a person reads the label's text and clicks it (styled checkboxes and radios)
  'labeltext',
  // text a person reads as what the element is (an assert pick's paragraph, list item or status line):
  // Chromium gives them no accessible name, and the replay's sources may give them no role; their words name them
  'paragraph',
  'listitem',
  'caption',
  'term',
  'definition',
  'note',
  'status',
  'alert',
  'code',
  'strong',
  'emphasis',
  'mark',
  'time',
  'blockquote',
  'figcaption',
])

/** Separators of the parts of a compound label: 'Search items (아이템 검색)', '저장 / Save', 'Menu · 메뉴'. */
const LABEL_PARTS = /\s*[()[\]{}/|·•:]\s*|\s+-\s+/u

/**
 * Comparison keys of the human labels of an element: accessible name, text, aria-label, placeholder, and
 * each part of a compound label on its own (a bilingual 'Search items (아이템 검색)' agrees with
 * '아이템 검색' as a whole, not as '검색' with a qualifier in front).
 */
export function labelKeys(e: CandidateElement | ElementIdentity): string[] {
  const out: string[] = []
  for (const v of labelTexts(e)) for (const k of textKeys(v)) if (!out.includes(k)) out.push(k)
  return out
}

/** The comparison keys of one label text: the whole and each part of a compound label (see `labelKeys`). */
function textKeys(v: string): string[] {
  const out: string[] = []
  const add = (text: string) => {
    const k = comparisonKey(text)
    if (k && !out.includes(k)) out.push(k)
  }
  const label = v.length > 160 ? v.slice(0, 160) : v
  add(label)
  // parts of two letters or more: a count in 'Delete (3)' is not a label of its own
  const parts = label.split(LABEL_PARTS).filter((p) => (p.match(/\p{L}/gu)?.length ?? 0) >= 2)
  if (parts.length > 1 && parts.length <= 4) for (const part of parts) add(part)
  else if (parts.length === 1 && comparisonKey(parts[0]) !== comparisonKey(label)) add(parts[0] as string)
  return out
}

/** The words of a label text as comparison keys ("Office: activate to sort" → office, activate, to, sort). */
function wordKeys(text: string): string[] {
  return text
    .slice(0, 160)
    .split(WORD_BREAK)
    .map((w) => comparisonKey(w))
    .filter(Boolean)
}

/**
 * True when two label texts share words but differ in the words that tell them apart: DataTables' "Office:
 * activate to sort column ascending" and "Name: activate to sort column descending" share most of their words (the
 * part after the colon agrees 0.97 letter by letter), yet name two columns. The words each has that the other lacks
 * must both hold letters (a count or a row number, "Inbox (3)" / "Inbox (5)", is the same label), must not agree as
 * labels (`labelKeyAgreement` below `SAME_LABEL_AGREEMENT`) and must not be listed synonyms, nor the whole texts a
 * rewording ("Sign in" / "Log in", "Search for..." / "Find for..."). Words added on one side only ("Save" / "Save
 * changes", "Tell me more" / "Tell me show more") are not a difference of this kind.
 */
export function differInOwnWords(a: string, b: string): boolean {
  const x = wordKeys(a)
  const y = wordKeys(b)
  const ownX = x.filter((w) => !y.includes(w))
  const ownY = y.filter((w) => !x.includes(w))
  if (ownX.length === x.length || ownX.length === 0 || ownY.length === 0) return false
  // a word of one side that no own word of the other spells alike ("ascending" / "descending" are alike; "Office"
  // and "Name" are not), and that holds letters
  const letters = (k: string) => (k.match(/\p{L}/gu)?.length ?? 0) >= 2
  const unmatched = (own: string[], other: string[]) =>
    own.filter((w) => letters(w) && !other.some((o) => labelKeyAgreement(w, o) >= SAME_LABEL_AGREEMENT))
  const onlyX = unmatched(ownX, ownY)
  const onlyY = unmatched(ownY, ownX)
  if (onlyX.length === 0 || onlyY.length === 0) return false
  if (areRewordedPhrases(onlyX.join(''), onlyY.join(''))) return false
  return !areRewordedPhrases(x.join(''), y.join(''))
}

/**
 * How well a candidate carries the recorded label as another holder of it, for `sameLabelCount` and the rules
 * that count holders at replay: the best agreement (`labelKeyAgreement`, or `insertedWordsAgreement` word by
 * word) of a recorded label text with a candidate label text, leaving out every pair of texts that differ in
 * their own words (`differInOwnWords`): six sortable column headers share "activate to sort column ascending",
 * not their label.
 */
export function holderAgreement(
  identity: CandidateElement | ElementIdentity,
  candidate: CandidateElement | ElementIdentity,
): number {
  let best = 0
  for (const x of labelTexts(identity)) {
    for (const y of labelTexts(candidate)) {
      if (differInOwnWords(x, y)) continue
      for (const a of textKeys(x)) for (const b of textKeys(y)) best = Math.max(best, labelKeyAgreement(a, b))
      if (best < 1) best = Math.max(best, insertedWordsAgreement(wordKeys(x), wordKeys(y)))
      if (best === 1) return best
    }
  }
  return best
}

/** The human labels of an element as written: accessible name, text, aria-label, placeholder. */
function labelTexts(e: CandidateElement | ElementIdentity): string[] {
  // a toolbar, list or region is not labelled by the text of what it holds
  const role = e.axRole?.trim().toLowerCase()
  const text = role && !NAME_FROM_CONTENT_ROLES.has(role) ? null : e.textContent
  const out = [e.axName, text, e.ariaLabel, e.placeholder].filter((v): v is string => !!v)
  // the words a person reads, without the words ligature icons draw as glyphs, as labels of their own too: Material
  // Dashboard 2's sidebar "content_paste Table List" is "table_view Tables" in release 3 (the icon's word changed),
  // while "person User Profile" / "person Profile" agree as a whole (the words alone, "User Profile" / "Profile",
  // read as a qualifier)
  const words = ligatureWords(e.iconClasses)
  if (words.length > 0)
    for (const v of [e.axName, text]) {
      const bare = v ? withoutLigatures(v, words) : v
      if (bare && bare !== v && !out.includes(bare)) out.push(bare)
    }
  return out
}

/** The words a ligature icon font draws as glyphs in the element (`material-icons:content_paste` → content_paste). */
function ligatureWords(iconClasses: readonly string[] | null | undefined): string[] {
  return (iconClasses ?? []).flatMap((c) => /^material-[a-z-]+:([a-z][a-z0-9_]*)$/.exec(c)?.slice(1) ?? [])
}

/**
 * A name or text without the words its ligature icons draw ("content_paste Table List" → "Table List"), unless
 * nothing else is left: an icon-only control keeps its word.
 */
function withoutLigatures(text: string, words: readonly string[]): string {
  let out = text
  for (const w of words) out = out.replace(new RegExp(`(^|\\s)${w}(?=\\s|$)`, 'giu'), ' ')
  out = out.replace(/\s+/gu, ' ').trim()
  return /\p{L}/u.test(out) ? out : text
}

/** The words of each human label of an element, as comparison keys ("Tell me more" → tell, me, more). */
function labelWordLists(e: CandidateElement | ElementIdentity): string[][] {
  return labelTexts(e).map(wordKeys)
}

/**
 * Agreement of a label that keeps every recorded word in order with new words put between them ("Tell me more"
 * → "Tell me show more", 0.75): the recorded words' share of the new label. Letters alone cannot see it (the
 * keys "tellmemore" and "tellmeshowmore" share one run of 6 of 14 letters). Two recorded words at least, the
 * first and the last kept in place (a word put in front is a qualifier, words after it a rewording, both judged
 * by `labelKeyAgreement`), and no more new words than kept ones; 0 otherwise.
 */
export function insertedWordsAgreement(recorded: readonly string[], candidate: readonly string[]): number {
  if (recorded.length < 2 || candidate.length <= recorded.length || candidate.length > 2 * recorded.length) return 0
  if (candidate[0] !== recorded[0] || candidate[candidate.length - 1] !== recorded[recorded.length - 1]) return 0
  let kept = 0
  for (const w of candidate) if (kept < recorded.length && w === recorded[kept]) kept++
  return kept === recorded.length ? recorded.length / candidate.length : 0
}

/**
 * An id a framework or build generated rather than a developer chose: React `useId` (':r1:'), a leading
 * digit, a run of 3+ digits, a uuid, or a token mixing letters with 2+ digits ('css-8f3a2b', 'sc-1x9f').
 * Such ids change between builds and do not prove identity.
 */
export function isGeneratedId(id: string): boolean {
  const v = id.trim()
  if (v === '' || v.startsWith(':') || /^\d/.test(v) || /\d{3,}/.test(v)) return true
  return v.split(/[-_:.]+/).some((t) => t.length >= 4 && /[a-z]/i.test(t) && (t.match(/\d/g)?.length ?? 0) >= 2)
}

/**
 * True when the element's form `name` names a group rather than the element: a radio button (every option
 * of "plan" carries name="plan") or a checkbox of a list (`name="tags[]"`). Such a name does not tell which
 * option the user clicked; a lone checkbox's name (`notifications`) does.
 */
export function groupedByName(identity: Pick<ElementIdentity, 'type' | 'axRole' | 'name'>): boolean {
  const type = identity.type?.trim().toLowerCase()
  const role = identity.axRole?.trim().toLowerCase()
  if (type === 'radio' || role === 'radio') return true
  return (type === 'checkbox' || role === 'checkbox') && (identity.name?.trim().endsWith('[]') ?? false)
}

/** Why a candidate is or is not accepted as the element the user saw. */
export interface LabelVerdict {
  ok: boolean
  /** Best agreement of any candidate label with any recorded label (1 when the identity has no label). */
  agreement: number
  /** Set when a deliberate identifier agrees exactly and overrides a disagreeing label. */
  identifier?: 'data-testid' | 'id' | 'name'
  /** Human-readable reason, for the strategy attempt's detail. */
  reason?: string
}

/** The recorded side of the check, prepared once per `locate` call. */
export interface LabelCheck {
  check(candidate: CandidateElement): LabelVerdict
  /**
   * Where the candidate stands compared with the recorded element, in [0, 1], or null when neither side
   * has context (a candidate without neighbour texts or box leaves that part out): the mean of neighbour-word
   * overlap (Jaccard of the words of the neighbours' texts, or of the nearest one alone when that is higher), closeness (exp(−distance / 150 px)) and, for a
   * recorded non-generated id, whether the candidate carries it (1) or not (0) at half weight.
   */
  context(candidate: CandidateElement): number | null
  /**
   * The word overlap (Jaccard) of the nearest neighbour alone — the first neighbour text, the element's own row
   * or group; the second when the first shares no word with any recorded neighbour (a control put beside the
   * element since) — or null when either side has none. Rows of a list list each other as further neighbours.
   */
  neighbours(candidate: CandidateElement): number | null
  /** True when the candidate carries the recorded non-generated id (ids are unique on a page). */
  idAgrees(candidate: CandidateElement): boolean
  /** The deliberate identifier the candidate shares exactly with the recording (data-testid, id, form name). */
  identifier(candidate: CandidateElement): LabelVerdict['identifier']
}

/** Weight of the recorded-id agreement in the context score (neighbours and place weigh 1 each). */
const ID_CONTEXT_WEIGHT = 0.5

/** Distance at which the context's closeness has fallen to 1/e (px). */
const CONTEXT_DISTANCE_PX = 150

/** Shortest id stem (comparison-key letters) a renamed id must keep to count as the recorded one renamed. */
const MIN_ID_STEM = 4

/**
 * How much a candidate's id says it is the recorded id renamed, in [0, 1]: 1 when equal, their similarity when
 * one keeps the other whole at its start (a suffix or a version put after it: `login` → `login-v2`), else 0.
 * Generated ids (`:r1:`, `css-8f3a2b`) say nothing.
 */
export function idStemAgreement(recorded: string, candidate: string | null | undefined): number {
  const c = candidate?.trim()
  if (!c) return 0
  if (c === recorded) return 1
  if (isGeneratedId(c)) return 0
  const a = comparisonKey(recorded)
  const b = comparisonKey(c)
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  return short.length >= MIN_ID_STEM && long.startsWith(short) ? keySimilarity(a, b) : 0
}

/**
 * The words of an element's neighbours, as comparison keys. Words, not whole texts: a neighbour's text changes
 * as a whole when one word is added to it (a decoy "Duplicate" put before a select's options), while most of
 * its words stay; recorded texts are cut at 60 characters, so the last word may be a fragment.
 */
const wordsOf = (texts: readonly string[] | null | undefined): Set<string> => {
  const set = new Set<string>()
  for (const t of texts ?? []) {
    for (const w of t.split(WORD_BREAK)) {
      const k = comparisonKey(w)
      if (k) set.add(k)
    }
  }
  return set
}
const WORD_BREAK = /[\s,.;:!?|/\\()[\]{}"'`<>·•›»«‹—–\-_]+/u

/**
 * The precision rule of the cascade (see the package README): when the identity has a human label, a
 * candidate found by structure (CSS, XPath, the similarity winner, any tie-break) must carry a label that
 * agrees with it — agreement (`labelKeyAgreement`, best pair) ≥ `minLabelScore` — and must not simply be a
 * recorded neighbour (its label equals the text of an element that stood next to the target when it was
 * recorded and differs from the target's), and a weak agreement (< 0.6) must not come with an unrelated
 * non-generated id. Any failure rejects the candidate unless a deliberate identifier agrees exactly:
 * data-testid, a non-generated id, or the form name.
 */
export function createLabelCheck(identity: ElementIdentity, minLabelScore = DEFAULT_MIN_LABEL_SCORE): LabelCheck {
  const recorded = labelKeys(identity)
  const recordedLabelWords = labelWordLists(identity)
  const neighbours: string[] = []
  for (const t of identity.neighborText ?? []) {
    const k = comparisonKey(t)
    if (k && !recorded.includes(k) && !neighbours.includes(k)) neighbours.push(k)
  }
  const testId = identity.dataTestId?.trim() || null
  const id = identity.id?.trim() && !isGeneratedId(identity.id) ? identity.id.trim() : null
  const name = (!groupedByName(identity) && identity.name?.trim()) || null
  const identifier = (c: CandidateElement): LabelVerdict['identifier'] =>
    testId && c.dataTestId?.trim() === testId
      ? 'data-testid'
      : id && c.id?.trim() === id
        ? 'id'
        : name && c.name?.trim() === name
          ? 'name'
          : undefined
  const cache = new WeakMap<object, LabelVerdict>()
  const recordedWords = wordsOf(identity.neighborText)
  const recordedNearest = wordsOf(identity.neighborText?.slice(0, 1))
  const box = identity.boundingBox
  const hasBox = !!box && box.width > 0 && box.height > 0
  /**
   * The word overlap (Jaccard) of the nearest neighbour with the recorded nearest one, or null when either side
   * has none. A nearest text that shares no word with anything the recording saw around the element (a control
   * the redesign put beside it: material-dashboard's "Duplicate" before each row's "PDF") says nothing about the
   * row; the next text does.
   */
  const nearestAgreement = (c: CandidateElement): number | null => {
    const texts = c.neighborText ?? []
    if (recordedNearest.size === 0 || !texts[0]) return null
    let words = wordsOf([texts[0]])
    if (texts[1] && ![...words].some((w) => recordedWords.has(w))) words = wordsOf([texts[1]])
    if (words.size === 0) return null
    let inter = 0
    for (const w of recordedNearest) if (words.has(w)) inter++
    return inter / (recordedNearest.size + words.size - inter)
  }
  return {
    idAgrees: (c) => id !== null && c.id?.trim() === id,
    identifier,
    neighbours(c) {
      return nearestAgreement(c)
    },
    context(c) {
      let sum = 0
      let n = 0
      // a source that does not report neighbours (null) or boxes leaves that part out: unknown, not different
      if (recordedWords.size > 0 && c.neighborText != null) {
        const words = wordsOf(c.neighborText)
        let inter = 0
        for (const w of recordedWords) if (words.has(w)) inter++
        // the words of all neighbours, or the nearest one alone when it is the recorded one (a field's own caption,
        // a row's date): look-alikes put around it since add words to the first, not to the second
        sum += Math.max(inter / (recordedWords.size + words.size - inter), nearestAgreement(c) ?? 0)
        n++
      }
      const b = c.boundingBox
      if (hasBox && b) {
        sum += Math.exp(-placeDistance(box, b, identity.pageScroll, c.pageScroll) / CONTEXT_DISTANCE_PX)
        n++
      }
      // The recorded id: carried → 1, renamed keeping the recorded one as its stem (`btnNavbarSearch` →
      // `btnNavbarSearch-v2`) → their similarity, another id → 0; at half weight, because ids are renamed in
      // redesigns as often as the element is replaced by another one.
      if (id) {
        sum += ID_CONTEXT_WEIGHT * idStemAgreement(id, c.id)
        n += ID_CONTEXT_WEIGHT
      }
      return n === 0 ? null : sum / n
    },
    check(c) {
      if (minLabelScore <= 0) return { ok: true, agreement: 1 }
      const hit = cache.get(c)
      if (hit) return hit
      const keys = labelKeys(c)
      if (recorded.length === 0) {
        // An element the user saw without any label (an icon button, an avatar, a bare field) that now says
        // something in words is another control standing where it stood: "Archive" where a ☰ was.
        const by = keys.length > 0 ? identifier(c) : undefined
        const verdict: LabelVerdict =
          keys.length === 0
            ? { ok: true, agreement: 1 }
            : by
              ? { ok: true, agreement: 1, identifier: by }
              : { ok: false, agreement: 0, reason: 'has a label where the recorded element had none' }
        cache.set(c, verdict)
        return verdict
      }
      let agreement = 0
      for (const a of recorded) for (const b of keys) agreement = Math.max(agreement, labelKeyAgreement(a, b))
      if (agreement < 1)
        for (const a of recordedLabelWords) {
          for (const b of labelWordLists(c)) agreement = Math.max(agreement, insertedWordsAgreement(a, b))
        }
      let reason: string | undefined
      if (agreement < minLabelScore) {
        reason =
          keys.length === 0
            ? 'has no label where the recorded element had one'
            : `label disagrees with the recorded one (${agreement.toFixed(2)} < ${minLabelScore.toFixed(2)})`
      } else if (agreement < 1 && keys.some((k) => neighbours.includes(k))) {
        reason = 'its label is the text of a recorded neighbour, not of the target'
      } else if (agreement < WEAK_LABEL_AGREEMENT && id && c.id && !isGeneratedId(c.id)) {
        // a weak label (임시 저장 vs 임시 보관, 0.5) needs the ids not to contradict it: renamed ids stay
        // related ('login-btn' → 'login-button'), another element's id does not ('temp')
        const idSimilarity = keySimilarity(comparisonKey(id), comparisonKey(c.id))
        if (idSimilarity < 0.5)
          reason = `label agrees only weakly (${agreement.toFixed(2)}) and its id "${c.id}" is unrelated to the recorded "${id}"`
      }
      let verdict: LabelVerdict = { ok: reason === undefined, agreement }
      if (reason) {
        const by = identifier(c)
        verdict = by ? { ok: true, agreement, identifier: by } : { ok: false, agreement, reason }
      }
      cache.set(c, verdict)
      return verdict
    },
  }
}

/** The same element seen by two lookups: the same object, or the same XPath in its root and the same box (±1 px). */
export function sameCandidate(a: CandidateElement, b: CandidateElement): boolean {
  if (a === b) return true
  if (!a.xpath || a.xpath !== b.xpath) return false
  const x = a.boundingBox
  const y = b.boundingBox
  if (!x || !y) return x === y
  // within a pixel: recorded boxes are rounded
  return (
    Math.abs(x.x - y.x) < 1 &&
    Math.abs(x.y - y.y) < 1 &&
    Math.abs(x.width - y.width) < 1 &&
    Math.abs(x.height - y.height) < 1
  )
}

const CHECK_ROLES: ReadonlySet<string> = new Set(['checkbox', 'switch', 'menuitemcheckbox'])
const RADIO_ROLES: ReadonlySet<string> = new Set(['radio', 'menuitemradio'])
const FIELD_ROLES: ReadonlySet<string> = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'spinbutton',
  'listbox',
  'slider',
])

/**
 * What a person does with a control of this role: tick it (checkbox, switch), choose it among others (radio),
 * fill it in (a text field, a select, a slider) or press it (buttons, links, tabs, menu items and the rest);
 * null when the role is unknown. Redesigns swap roles within a kind (a link styled as a button becomes a
 * `<button>`, a checkbox becomes a switch), not across.
 */
export function roleKind(role: string | null | undefined): 'check' | 'radio' | 'field' | 'press' | null {
  const r = role?.trim().toLowerCase()
  if (!r) return null
  if (CHECK_ROLES.has(r)) return 'check'
  if (RADIO_ROLES.has(r)) return 'radio'
  if (FIELD_ROLES.has(r)) return 'field'
  return 'press'
}

/**
 * Whether two elements can be the same control by their roles: the same kind (`roleKind`), or a role unknown
 * on either side. A checkbox labelled "Checked" does not make a radio labelled "Checked" ambiguous.
 */
export function sameRoleKind(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = roleKind(a)
  const y = roleKind(b)
  return x === null || y === null || x === y
}

/**
 * Agreement (0.6) from which an element counts as carrying the same label for `sameLabelCount` and the
 * sole-holder rule: above the chance agreement of two short Korean words that share a syllable ('저장' /
 * '설정', '더하기' / '구매하기' score 0.5 on jamo), below every rewording and synonym.
 */
export const SAME_LABEL_AGREEMENT = 0.6

/**
 * Whether two elements' labels share a word of three letters or more ("Show entries" / "entries per page"), as
 * comparison keys; false when either has no label.
 */
export function sharesLabelWord(a: CandidateElement | ElementIdentity, b: CandidateElement | ElementIdentity): boolean {
  const long = (w: string) => (w.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 3
  const mine = new Set(labelWordLists(a).flat().filter(long))
  return mine.size > 0 && labelWordLists(b).some((words) => words.some((w) => mine.has(w)))
}
