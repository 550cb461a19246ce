import type { MutationName } from '../mutations'

/** v1 → renamed id, per element. Labels refer to these ids with `for=`. */
const idPairs = {
  loginForm: ['login-form', 'signin-form'],
  username: ['username', 'user-id'],
  password: ['password', 'user-pw'],
  remember: ['remember', 'keep-signed-in'],
  loginBtn: ['login-btn', 'signin-button'],
  quickLogin: ['quick-login', 'quick-signin'],
  loginError: ['login-error', 'signin-error'],
  navList: ['nav-list', 'nav-items'],
  navSettings: ['nav-settings', 'nav-preferences'],
  navWidgets: ['nav-widgets', 'nav-components'],
  navFrame: ['nav-frame', 'nav-embed'],
  logoutBtn: ['logout-btn', 'signout'],
  search: ['search', 'search-input'],
  tagFilter: ['tag-filter', 'tag-filter-input'],
  createBtn: ['create-btn', 'add-item-button'],
  importBtn: ['import-btn', 'import-button'],
  itemList: ['item-list', 'items'],
  itemCount: ['item-count', 'items-count'],
  itemPrefix: ['item-', 'product-'],
  detail: ['detail', 'detail-panel'],
  detailClose: ['detail-close', 'detail-close-button'],
  modal: ['item-modal', 'item-dialog'],
  modalTitle: ['item-modal-title', 'item-dialog-title'],
  itemName: ['item-name', 'new-item-name'],
  itemPrice: ['item-price', 'new-item-price'],
  itemCategory: ['item-category', 'new-item-category'],
  modalError: ['modal-error', 'dialog-error'],
  modalSave: ['modal-save', 'dialog-save'],
  modalCancel: ['modal-cancel', 'dialog-cancel'],
  modalDraft: ['modal-draft', 'dialog-draft'],
  language: ['language', 'lang-select'],
  notifications: ['notifications', 'notify-toggle'],
  themeLight: ['theme-light', 'theme-option-light'],
  themeDark: ['theme-dark', 'theme-option-dark'],
  saveBtn: ['save-btn', 'settings-save'],
  draftBtn: ['draft-btn', 'settings-draft'],
  toast: ['toast', 'notice'],
  widget: ['stepper', 'quantity-stepper'],
  addBtn: ['add-btn', 'increment-button'],
  resetBtn: ['reset-btn', 'reset-button'],
  count: ['count', 'count-value'],
  buyBtn: ['buy-btn', 'purchase-button'],
  buyStatus: ['buy-status', 'purchase-status'],
  frame: ['memo-frame', 'embedded-memo'],
  memo: ['memo', 'memo-input'],
  sendBtn: ['send-btn', 'send-button'],
  clearBtn: ['clear-btn', 'clear-button'],
  sent: ['sent', 'sent-output'],
} as const

/** v1 → renamed class attribute values. */
const classPairs = {
  primary: ['btn btn-primary', 'button--primary'],
  secondary: ['btn btn-secondary', 'button--secondary'],
  ghost: ['btn btn-ghost', 'button--ghost'],
  header: ['app-header', 'topbar'],
  brand: ['brand', 'topbar__brand'],
  nav: ['main-nav', 'navigation'],
  navLink: ['nav-link', 'navigation__link'],
  card: ['card', 'panel'],
  field: ['form-field', 'field'],
  control: ['form-control', 'input'],
  check: ['check', 'checkbox-row'],
  toolbar: ['toolbar', 'actions-bar'],
  grid: ['item-grid', 'product-grid'],
  itemCard: ['item-card', 'product-tile'],
  itemName: ['item-name', 'product-tile__name'],
  itemMeta: ['item-meta', 'product-tile__meta'],
  detail: ['detail-panel', 'inspector'],
  modal: ['modal', 'dialog'],
  backdrop: ['modal-backdrop', 'dialog-backdrop'],
  toast: ['toast', 'notification'],
  block: ['settings-block', 'settings-section'],
  error: ['form-error', 'error-text'],
  icon: ['icon', 'glyph'],
  wrap: ['btn-wrap', 'btn-wrap'],
  widgetBtn: ['w-btn', 'widget-button'],
  page: ['page', 'page'],
} as const

/** v1 → reworded texts. */
const textPairs = {
  loginBtn: ['로그인', '로그인하기'],
  usernameLabel: ['아이디', '사용자 아이디'],
  usernamePlaceholder: ['아이디를 입력하세요', '아이디 또는 이메일'],
  passwordLabel: ['비밀번호', '비밀번호'],
  passwordPlaceholder: ['비밀번호를 입력하세요', '비밀번호 입력'],
  remember: ['로그인 상태 유지', '로그인 상태 유지'],
  searchPlaceholder: ['Search items (아이템 검색)', '아이템 이름으로 찾기'],
  searchLabel: ['검색', '아이템 검색'],
  createBtn: ['새로 만들기', '추가'],
  saveBtn: ['저장', '저장하기'],
  notifications: ['알림 받기', '알림 수신'],
  addBtn: ['더하기', '하나 더'],
  sendBtn: ['전송', '보내기'],
  buyBtn: ['구매하기', '구매'],
} as const

type Pairs = Record<string, readonly [string, string]>
type Picked<P extends Pairs> = { readonly [K in keyof P]: string }

function pick<P extends Pairs>(pairs: P, renamed: boolean): Picked<P> {
  const out: Record<string, string> = {}
  for (const [key, pair] of Object.entries(pairs)) out[key] = pair[renamed ? 1 : 0]
  return out as Picked<P>
}

/** Everything a template needs to know about the active mutations. */
export interface Names {
  readonly id: Picked<typeof idPairs>
  readonly cls: Picked<typeof classPairs>
  readonly text: Picked<typeof textPairs>
  readonly has: (name: MutationName) => boolean
  /** Decoy siblings are shown for `decoy-siblings` and for `removal` (the similar element that remains). */
  readonly decoys: boolean
  /** The real target is removed (`removal`). */
  readonly removed: boolean
  /** Dynamic CSS-in-JS style class for a component name, e.g. `css-1k3f9a`. */
  readonly css: (component: string) => string
}

/** FNV-1a 32-bit hash, base-36 (deterministic, no randomness). */
export function hash36(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(36).padStart(6, '0').slice(-6)
}

/** Builds the names for a mutation set; `classSeed` feeds the css-<hash> classes. */
export function namesFor(mutations: ReadonlySet<MutationName>, classSeed: string): Names {
  const has = (name: MutationName) => mutations.has(name)
  const hashKey = `${has('renamed-classes') ? 'v2' : 'v1'}:${classSeed}`
  return {
    id: pick(idPairs, has('renamed-ids')),
    cls: pick(classPairs, has('renamed-classes')),
    text: pick(textPairs, has('reworded-labels')),
    has,
    decoys: has('decoy-siblings') || has('removal'),
    removed: has('removal'),
    css: (component) => `css-${hash36(`${hashKey}:${component}`)}`,
  }
}
