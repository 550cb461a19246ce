import { SampleAppError } from './errors'

/** Names of the single mutations a page can be rendered with (combine freely; `v2` is a preset). */
export const mutationNames = [
  'renamed-ids',
  'renamed-classes',
  'extra-wrappers',
  'layout-shift',
  'reworded-labels',
  'tag-changes',
  'decoy-siblings',
  'reordered-blocks',
  'removal',
] as const

export type MutationName = (typeof mutationNames)[number]

/** The two product versions. `v2` is the redesign: every mutation except `removal`. */
export type SampleAppVersion = 'v1' | 'v2'

/** Locator strategies named in the change table (in cascade order). */
export type LocatorStrategy =
  | 'role+name'
  | 'text'
  | 'form-name'
  | 'id-css'
  | 'class-css'
  | 'xpath'
  | 'similarity'
  | 'coordinates'

/** One named mutation: what it changes, which locator strategies it breaks and which should survive it. */
export interface MutationInfo {
  readonly name: MutationName
  readonly summary: string
  readonly changes: readonly string[]
  readonly breaks: readonly LocatorStrategy[]
  readonly survives: readonly LocatorStrategy[]
}

/** The catalogue of single mutations; the README change table is this list. */
export const mutations: readonly MutationInfo[] = [
  {
    name: 'renamed-ids',
    summary: 'Every id is renamed; labels follow (for=), form `name`s stay.',
    changes: [
      '#login-btn → #signin-button',
      '#username → #user-id, #password → #user-pw',
      '#search → #search-input, #create-btn → #add-item-button',
      '#save-btn → #settings-save, #logout-btn → #signout',
      '#modal-save → #dialog-save, #add-btn → #increment-button (shadow), #send-btn → #send-button (iframe)',
    ],
    breaks: ['id-css', 'xpath'],
    survives: ['role+name', 'text', 'form-name', 'class-css', 'similarity', 'coordinates'],
  },
  {
    name: 'renamed-classes',
    summary: 'BEM-style class rename and new css-<hash> classes; looks identical.',
    changes: [
      '"btn btn-primary" → "button--primary" (also secondary/ghost)',
      '"nav-link" → "navigation__link", "item-card" → "product-tile", "card" → "panel"',
      'css-<hash> classes re-hashed',
    ],
    breaks: ['class-css'],
    survives: ['role+name', 'text', 'form-name', 'id-css', 'xpath', 'similarity', 'coordinates'],
  },
  {
    name: 'extra-wrappers',
    summary: 'An extra <div> (display: contents) around buttons; same pixels.',
    changes: ['<div class="btn-wrap"> around submit, create, save, modal, widget and iframe buttons'],
    breaks: ['xpath'],
    survives: ['role+name', 'text', 'form-name', 'id-css', 'class-css', 'similarity', 'coordinates'],
  },
  {
    name: 'layout-shift',
    summary: 'A notice banner pushes every page body down by 80 px.',
    changes: ['<div role="note" class="update-banner"> (64 px banner in an 80 px slot) at the top of <main>'],
    breaks: ['coordinates'],
    survives: ['role+name', 'text', 'form-name', 'id-css', 'class-css', 'xpath', 'similarity'],
  },
  {
    name: 'reworded-labels',
    summary: 'Button texts, labels and placeholders reworded (names change, meaning stays).',
    changes: [
      '"로그인" → "로그인하기", label "아이디" → "사용자 아이디"',
      'search placeholder "Search items (아이템 검색)" → "아이템 이름으로 찾기", aria-label "검색" → "아이템 검색"',
      '"새로 만들기" → "추가", settings "저장" → "저장하기", "알림 받기" → "알림 수신"',
      'shadow "더하기" → "하나 더", iframe "전송" → "보내기"',
    ],
    breaks: ['role+name', 'text'],
    survives: ['form-name', 'id-css', 'class-css', 'xpath', 'similarity', 'coordinates'],
  },
  {
    name: 'tag-changes',
    summary: 'Some controls change tag but keep their role and name.',
    changes: [
      'logout <button> → <a role="button" href="/logout">',
      'create <button> → <a role="button" href="#new">',
      'item cards <button> → <div role="button" tabindex="0">',
    ],
    breaks: ['xpath'],
    survives: ['role+name', 'text', 'form-name', 'id-css', 'class-css', 'similarity', 'coordinates'],
  },
  {
    name: 'decoy-siblings',
    summary: 'A new button/input with the same classes is inserted BEFORE the real one.',
    changes: [
      '"간편 로그인" before "로그인" (same "btn btn-primary")',
      '"가져오기" before "새로 만들기", a "태그 필터" input before the search box',
      '"임시 저장" before settings "저장" and before the modal "저장"',
      'shadow "초기화" before "더하기", iframe "지우기" before "전송"',
    ],
    breaks: ['class-css', 'xpath', 'coordinates'],
    survives: ['role+name', 'text', 'form-name', 'id-css', 'similarity'],
  },
  {
    name: 'reordered-blocks',
    summary: 'Blocks change order; the settings Save button moves from the bottom to the top right.',
    changes: [
      'settings blocks 언어/알림/테마 → 테마/언어/알림; 저장 moves to the top right',
      'login: "로그인 상태 유지" moves below the button; list: create button moves left of the search box',
    ],
    breaks: ['xpath', 'coordinates'],
    survives: ['role+name', 'text', 'form-name', 'id-css', 'class-css', 'similarity'],
  },
  {
    name: 'removal',
    summary: 'The target is gone and a similar element remains: the right outcome is "not found".',
    changes: [
      '"로그인" removed, "간편 로그인" remains; "새로 만들기" removed, "가져오기" remains',
      'search box removed, "태그 필터" remains; settings/modal "저장" removed, "임시 저장" remains',
      'shadow "더하기" removed, "초기화" remains; iframe "전송" removed, "지우기" remains',
    ],
    breaks: ['role+name', 'text', 'form-name', 'id-css', 'class-css', 'xpath', 'similarity', 'coordinates'],
    survives: [],
  },
]

/** Mutations of each version preset. */
export const versionPresets: Readonly<Record<SampleAppVersion, readonly MutationName[]>> = {
  v1: [],
  v2: mutationNames.filter((name) => name !== 'removal'),
}

/** True for a known mutation name. */
export function isMutationName(value: string): value is MutationName {
  return (mutationNames as readonly string[]).includes(value)
}

/** Normalizes a list: known names only (throws otherwise), deduplicated, in catalogue order. */
export function normalizeMutations(names: readonly string[]): MutationName[] {
  const unknown = names.filter((name) => !isMutationName(name))
  if (unknown.length > 0) {
    throw new SampleAppError(
      'SAMPLE_APP_UNKNOWN_MUTATION',
      `Unknown mutation ${unknown.map((n) => `"${n}"`).join(', ')}.`,
      {
        hint: `Use a comma-separated subset of: ${mutationNames.join(', ')} (or "none").`,
      },
    )
  }
  return mutationNames.filter((name) => names.includes(name))
}

/** Parses the `?m=` form: `renamed-ids,decoy-siblings`; `""` or `none` is the empty list. */
export function parseMutationList(text: string): MutationName[] {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part !== 'none')
  return normalizeMutations(parts)
}

/** Inverse of {@link parseMutationList}: canonical comma-separated form, `none` for the empty list. */
export function serializeMutationList(names: readonly MutationName[]): string {
  const normalized = normalizeMutations(names)
  return normalized.length === 0 ? 'none' : normalized.join(',')
}

/** Parses `v1`, `v2`, `1` or `2` (case-insensitive). */
export function parseVersion(text: string): SampleAppVersion {
  const v = text.trim().toLowerCase()
  if (v === 'v1' || v === '1') return 'v1'
  if (v === 'v2' || v === '2') return 'v2'
  throw new SampleAppError('SAMPLE_APP_UNKNOWN_VERSION', `Unknown version "${text}".`, {
    hint: 'Use v1 or v2 (also accepted: 1, 2).',
  })
}

/** The version whose preset equals these mutations, if any (for display). */
export function versionOf(names: readonly MutationName[]): SampleAppVersion | undefined {
  const key = normalizeMutations(names).join(',')
  for (const version of ['v1', 'v2'] as const) if (versionPresets[version].join(',') === key) return version
  return undefined
}

/** One markdown table row of the README change table (kept in sync by a test). */
export function mutationTableRow(m: MutationInfo): string {
  const md = (text: string) => text.replace(/</g, '&lt;').replace(/\|/g, '\\|')
  return `| \`${m.name}\` | ${md(m.summary)} | ${m.changes.map(md).join('<br>')} | ${m.breaks.join(', ') || '—'} | ${
    m.survives.join(', ') || 'nothing (expected: not found)'
  } |`
}
