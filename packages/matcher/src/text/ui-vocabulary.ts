import { comparisonKey } from './text-similarity'

/**
 * Labels that name the same action on a control, one group per action and per language. A redesign
 * rewords '새로 만들기' as '추가' or 'Send' as 'Submit'; no edit distance sees that, a person does.
 *
 * Kept deliberately narrow, because a synonym that is not one makes healing click the wrong control:
 * - groups never cross languages (a bilingual page can show 'Save' and '저장' as two buttons);
 * - a label must equal a listed phrase as a whole (after normalisation: case, spaces and punctuation do
 *   not count, so 'log in' covers 'Login'); '간편 로그인' or '임시 저장' are other actions and stay out;
 * - actions that often stand side by side stay apart: cancel / close (each is 'dismiss', never the other),
 *   delete / clear, save / apply, add / import.
 *
 * The places a link or tab leads to are listed too (a 'Home' breadcrumb reworded as 'Start page').
 */
export const UI_ACTION_SYNONYMS: readonly (readonly string[])[] = [
  // English
  ['add', 'add new', 'create', 'create new', 'new', 'increment', 'one more', 'plus'],
  ['send', 'submit', 'post'],
  ['save', 'save changes'],
  ['search', 'find', 'look up'],
  ['sign in', 'log in'],
  ['sign out', 'log out'],
  ['sign up', 'register', 'create account'],
  ['delete', 'remove', 'trash'],
  ['edit', 'modify', 'change'],
  ['ok', 'okay', 'confirm'],
  ['next', 'continue', 'proceed'],
  ['back', 'previous', 'go back'],
  ['buy', 'purchase', 'buy now', 'checkout'],
  ['settings', 'preferences', 'options'],
  ['view', 'show', 'see'],
  ['details', 'info', 'information', 'more info'],
  ['reset', 'clear all', 'start over'],
  ['close', 'dismiss'],
  ['cancel', 'dismiss'],
  ['next', 'forward'],
  ['remember me', 'keep me signed in', 'stay signed in', 'keep me logged in'],
  // English: the places a navigation link or tab leads to
  ['home', 'home page', 'start page', 'start'],
  ['dashboard', 'overview'],
  ['account', 'my account', 'profile', 'my profile'],
  // Korean
  ['추가', '추가하기', '새로 만들기', '만들기', '새로 추가', '생성', '생성하기', '더하기', '하나 더', '새 항목'],
  ['전송', '전송하기', '보내기', '제출', '제출하기'],
  ['저장', '저장하기'],
  ['검색', '검색하기', '찾기', '조회', '조회하기'],
  ['로그인', '로그인하기'],
  ['로그아웃', '로그아웃하기'],
  ['회원가입', '가입', '가입하기'],
  ['삭제', '삭제하기', '제거', '제거하기'],
  ['수정', '수정하기', '편집', '편집하기', '변경', '변경하기'],
  ['확인', '확인하기'],
  ['다음', '다음 단계', '계속', '계속하기'],
  ['이전', '이전 단계', '뒤로', '뒤로 가기'],
  ['구매', '구매하기', '구입', '구입하기', '결제', '결제하기', '주문', '주문하기'],
  ['설정', '환경설정'],
  ['초기화', '초기화하기', '리셋'],
  ['로그인 상태 유지', '자동 로그인'],
  // Korean: the places a navigation link or tab leads to
  ['홈', '홈으로', '처음으로', '메인', '메인 화면'],
  ['대시보드', '개요', '현황'],
  ['계정', '내 계정', '프로필', '내 정보'],
]

/** Agreement of two labels that are listed synonyms of one action (a rewording, never an exact match). */
export const SYNONYM_AGREEMENT = 0.7

/** comparison key → indexes of the groups it belongs to. */
const groupsByKey: ReadonlyMap<string, readonly number[]> = (() => {
  const map = new Map<string, number[]>()
  UI_ACTION_SYNONYMS.forEach((group, index) => {
    for (const phrase of group) {
      const key = comparisonKey(phrase)
      const list = map.get(key) ?? []
      if (!list.includes(index)) list.push(index)
      map.set(key, list)
    }
  })
  return map
})()

/** True when two comparison keys (`comparisonKey`) are different phrases for the same action. */
export function areActionSynonyms(a: string, b: string): boolean {
  if (a === b) return false
  const ga = groupsByKey.get(a)
  if (!ga) return false
  const gb = groupsByKey.get(b)
  return gb !== undefined && ga.some((g) => gb.includes(g))
}

/** Every listed phrase key with the keys of its synonyms (longest first, so 'add new' is tried before 'add'). */
const phraseSynonyms: readonly (readonly [string, readonly string[]])[] = [...groupsByKey.entries()]
  .map(([key, groups]): [string, string[]] => [
    key,
    [
      ...new Set(
        groups.flatMap((g) => (UI_ACTION_SYNONYMS[g] ?? []).map(comparisonKey)).filter((k) => k !== key && k !== ''),
      ),
    ],
  ])
  .sort((x, y) => y[0].length - x[0].length)

/**
 * True when `b` is `a` with up to `maxSwaps` listed action phrases replaced by their synonyms ('Search for…'
 * → 'Find for…', 'View details' → 'Show info'): the same label reworded phrase by phrase. Keys have no
 * spaces, so a phrase is replaced where it stands in the key; the rest must stay exactly as it was.
 */
export function areRewordedPhrases(a: string, b: string, maxSwaps = 2): boolean {
  if (a === b) return false
  if (areActionSynonyms(a, b)) return true
  if (swapsTo(a, b, maxSwaps)) return true
  // A third phrase swapped ('add ADD NEW CARD' → 'Create CREATE CREATE CARD') only when the object the action is
  // about stays in place at the start or the end: with every word reworded no object is left to tell it apart.
  return maxSwaps === 2 && keptEnd(a, b) >= MIN_KEPT_OBJECT && swapsTo(a, b, 3)
}

/** Letters a label must keep at its start or end for a third phrase to be swapped ('card'). */
const MIN_KEPT_OBJECT = 3

/** The longer of the common prefix and the common suffix of two keys. */
function keptEnd(a: string, b: string): number {
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length && tail < b.length && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  return Math.max(head, tail)
}

function swapsTo(a: string, b: string, swaps: number): boolean {
  if (a === b) return true
  if (swaps === 0) return false
  for (const [key, others] of phraseSynonyms) {
    for (let at = a.indexOf(key); at >= 0; at = a.indexOf(key, at + 1)) {
      // the text before the phrase stays as it was
      if (at > 0 && !b.startsWith(a.slice(0, at))) break
      const tail = a.slice(at + key.length)
      for (const other of others) {
        if (b.startsWith(other, at) && swapsTo(tail, b.slice(at + other.length), swaps - 1)) return true
      }
    }
  }
  return false
}
