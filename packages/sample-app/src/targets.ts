/** Page paths served by the sample app (GET). */
export type SamplePage = '/login' | '/list' | '/settings' | '/widgets' | '/frame' | '/frame-inner'

/** One interactive element with a ground-truth id (the id reported in events; never in the DOM). */
export interface SampleTarget {
  /** Ground-truth id, e.g. `login.submit`. List cards are `list.item.<n>` (n = 1..20). */
  readonly truth: string
  /** The page whose document holds the element (`/frame-inner` for the iframe, `/widgets` for the shadow root). */
  readonly page: SamplePage
  /** ARIA role and accessible name in v1. */
  readonly role: string
  readonly name: string
  /** A decoy: only present with `decoy-siblings` or `removal`. Clicking it is a wrong answer. */
  readonly decoy?: true
  /** Under `removal` this target is gone; `similar` is the look-alike that remains. */
  readonly removedBy?: 'removal'
  readonly similar?: string
}

/** The catalogue of ground-truth targets (item cards: only `list.item.1` is listed; 2..20 follow the pattern). */
export const sampleTargets: readonly SampleTarget[] = [
  { truth: 'login.username', page: '/login', role: 'textbox', name: '아이디' },
  { truth: 'login.password', page: '/login', role: 'textbox', name: '비밀번호' },
  { truth: 'login.remember', page: '/login', role: 'checkbox', name: '로그인 상태 유지' },
  {
    truth: 'login.submit',
    page: '/login',
    role: 'button',
    name: '로그인',
    removedBy: 'removal',
    similar: 'login.quick',
  },
  { truth: 'login.quick', page: '/login', role: 'button', name: '간편 로그인', decoy: true },
  { truth: 'nav.list', page: '/list', role: 'link', name: '목록' },
  { truth: 'nav.settings', page: '/list', role: 'link', name: '설정' },
  { truth: 'nav.logout', page: '/list', role: 'button', name: '로그아웃' },
  {
    truth: 'list.search',
    page: '/list',
    role: 'searchbox',
    name: '검색',
    removedBy: 'removal',
    similar: 'list.filter',
  },
  { truth: 'list.filter', page: '/list', role: 'textbox', name: '태그 필터', decoy: true },
  {
    truth: 'list.create',
    page: '/list',
    role: 'button',
    name: '새로 만들기',
    removedBy: 'removal',
    similar: 'list.import',
  },
  { truth: 'list.import', page: '/list', role: 'button', name: '가져오기', decoy: true },
  { truth: 'list.item.1', page: '/list', role: 'button', name: '전설의 검 무기 · 12,000원' },
  { truth: 'list.detail.close', page: '/list', role: 'button', name: '닫기' },
  { truth: 'modal.name', page: '/list', role: 'textbox', name: '이름' },
  { truth: 'modal.price', page: '/list', role: 'spinbutton', name: '가격' },
  { truth: 'modal.category', page: '/list', role: 'combobox', name: '분류' },
  { truth: 'modal.cancel', page: '/list', role: 'button', name: '취소' },
  {
    truth: 'modal.save',
    page: '/list',
    role: 'button',
    name: '저장',
    removedBy: 'removal',
    similar: 'modal.draft',
  },
  { truth: 'modal.draft', page: '/list', role: 'button', name: '임시 저장', decoy: true },
  { truth: 'settings.language', page: '/settings', role: 'combobox', name: '언어' },
  { truth: 'settings.notifications', page: '/settings', role: 'checkbox', name: '알림 받기' },
  { truth: 'settings.theme.light', page: '/settings', role: 'radio', name: '라이트' },
  { truth: 'settings.theme.dark', page: '/settings', role: 'radio', name: '다크' },
  {
    truth: 'settings.save',
    page: '/settings',
    role: 'button',
    name: '저장',
    removedBy: 'removal',
    similar: 'settings.draft',
  },
  { truth: 'settings.draft', page: '/settings', role: 'button', name: '임시 저장', decoy: true },
  {
    truth: 'widget.add',
    page: '/widgets',
    role: 'button',
    name: '더하기',
    removedBy: 'removal',
    similar: 'widget.reset',
  },
  { truth: 'widget.reset', page: '/widgets', role: 'button', name: '초기화', decoy: true },
  { truth: 'widget.buy', page: '/widgets', role: 'button', name: '구매하기' },
  { truth: 'frame.memo', page: '/frame-inner', role: 'textbox', name: '메모' },
  {
    truth: 'frame.send',
    page: '/frame-inner',
    role: 'button',
    name: '전송',
    removedBy: 'removal',
    similar: 'frame.clear',
  },
  { truth: 'frame.clear', page: '/frame-inner', role: 'button', name: '지우기', decoy: true },
]
