import { formatPriceWon, sampleItems } from '../items'
import type { MutationName } from '../mutations'
import {
  commonRuntime,
  frameInnerScript,
  listScript,
  loginScript,
  settingsScript,
  widgetsScript,
} from './client-script'
import { esc, jsonForScript, sel, truth } from './html'
import { type Names, namesFor } from './names'
import { styles } from './styles'

/** Per-session settings shown on /settings. */
export interface SampleSettings {
  readonly language: 'ko' | 'en'
  readonly notifications: boolean
  readonly theme: 'light' | 'dark'
}

export const defaultSettings: SampleSettings = { language: 'ko', notifications: true, theme: 'light' }

/** Everything one render depends on. Same context → byte-identical HTML. */
export interface RenderContext {
  readonly mutations: ReadonlySet<MutationName>
  /** Feeds the css-<hash> class names. */
  readonly classSeed: string
  /** Reported with every ground-truth event, e.g. `v1`, `v2` or `renamed-ids,removal`. */
  readonly variantLabel: string
  /** Query to propagate to the iframe src (`m=...&seed=...`), or ''. */
  readonly variantQuery: string
  readonly user?: string
  readonly settings: SampleSettings
  readonly error?: string
  readonly next?: string
}

const icons = {
  login:
    '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4"/><path d="M10 17l5-5-5-5"/><path d="M15 12H3"/></svg>',
  bolt: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M13 2L3 14h9l-1 8 10-12h-9l1-8z"/></svg>',
  plus: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"><path d="M12 5v14M5 12h14"/></svg>',
  save: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M19 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h11l5 5v11a2 2 0 0 1-2 2z"/><path d="M17 21v-8H7v8M7 3v5h8"/></svg>',
  upload:
    '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M17 8l-5-5-5 5M12 3v12"/></svg>',
} as const

function icon(n: Names, svg: string): string {
  return `<span class="${n.cls.icon}" aria-hidden="true">${svg}</span>`
}

/** The extra wrapper of `extra-wrappers` (display: contents, so pixels do not move). */
function wrap(n: Names, html: string): string {
  return n.has('extra-wrappers') ? `<div class="${n.cls.wrap}">${html}</div>` : html
}

function banner(n: Names): string {
  return n.has('layout-shift')
    ? '<div class="update-banner-slot"><div class="update-banner" role="note">새 버전이 출시되었습니다. 바뀐 화면을 확인해 보세요.</div></div>'
    : ''
}

function header(n: Names, active: string, user: string | undefined): string {
  const link = (id: string, t: string, href: string, label: string) =>
    `<a id="${id}" class="${n.cls.navLink}" href="${href}"${active === href ? ' aria-current="page"' : ''}${truth(t)}>${label}</a>`
  const logout = n.has('tag-changes')
    ? `<a id="${n.id.logoutBtn}" class="${n.cls.ghost}" role="button" href="/logout"${truth('nav.logout')}>로그아웃</a>`
    : `<form method="post" action="/logout" style="display:contents"><button id="${n.id.logoutBtn}" class="${n.cls.ghost}" type="submit"${truth('nav.logout')}>로그아웃</button></form>`
  const nav =
    user === undefined
      ? ''
      : `<nav class="${n.cls.nav}" aria-label="주 메뉴">${link(n.id.navList, 'nav.list', '/list', '목록')}${link(
          n.id.navSettings,
          'nav.settings',
          '/settings',
          '설정',
        )}<span class="user-name">${esc(user)} 님</span>${logout}</nav>`
  return `<header class="${n.cls.header}"><a class="${n.cls.brand}" href="/list">아이템 상점 관리</a>${nav}</header>`
}

function htmlDocument(
  n: Names,
  ctx: RenderContext,
  opts: {
    title: string
    body: string
    script: string
    vars?: Record<string, unknown>
    bodyClass?: string
    extraCss?: string
  },
): string {
  const vars = Object.entries({ VARIANT: ctx.variantLabel, ...opts.vars })
    .map(([k, v]) => `var ${k} = ${jsonForScript(v)};`)
    .join('\n')
  const bodyClass = opts.bodyClass ?? (ctx.settings.theme === 'dark' ? 'theme-dark' : '')
  return `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(opts.title)} · 아이템 상점 관리</title>
<link rel="icon" href="data:,">
<style>${styles(n)}${opts.extraCss ?? ''}</style>
</head>
<body${bodyClass ? ` class="${bodyClass}"` : ''}>
${opts.body}
<script>
(function () {
'use strict';
${vars}
${commonRuntime}
${opts.script}
})();
</script>
</body>
</html>
`
}

function toast(n: Names): string {
  return `<div id="${n.id.toast}" class="${n.cls.toast}" role="status" aria-live="polite" hidden></div>`
}

function page(n: Names, ctx: RenderContext, active: string, content: string): string {
  return `${header(n, active, ctx.user)}<main class="${n.cls.page}">${banner(n)}${content}</main>${toast(n)}`
}

export function renderLogin(ctx: RenderContext): string {
  const n = names(ctx)
  const field = (id: string, name: string, type: string, label: string, placeholder: string, t: string, ac: string) =>
    `<div class="${n.cls.field}"><label for="${id}">${label}</label><input id="${id}" name="${name}" type="${type}" class="${n.cls.control}" placeholder="${placeholder}" autocomplete="${ac}"${truth(t)}></div>`
  const remember = `<label class="${n.cls.check}"><input type="checkbox" id="${n.id.remember}" name="remember" value="1"${truth('login.remember')}>${n.text.remember}</label>`
  const quick = n.decoys
    ? wrap(
        n,
        `<button id="${n.id.quickLogin}" class="${n.cls.primary}" type="button"${truth('login.quick')}>${icon(n, icons.bolt)}<span>간편 로그인</span></button>`,
      )
    : ''
  const submit = n.removed
    ? ''
    : wrap(
        n,
        `<button id="${n.id.loginBtn}" class="${n.cls.primary}" type="submit"${truth('login.submit')}>${icon(n, icons.login)}<span>${n.text.loginBtn}</span></button>`,
      )
  const reordered = n.has('reordered-blocks')
  const content = `<div class="login-wrap"><form id="${n.id.loginForm}" class="${n.cls.card}" method="post" action="/login" novalidate>
<h1>관리자 로그인</h1>
<p class="muted">아이템 상점 관리 도구에 오신 것을 환영합니다.</p>
<p id="${n.id.loginError}" class="${n.cls.error}" role="alert"${ctx.error ? '' : ' hidden'}>${esc(ctx.error ?? '')}</p>
${field(n.id.username, 'username', 'text', n.text.usernameLabel, n.text.usernamePlaceholder, 'login.username', 'username')}
${field(n.id.password, 'password', 'password', n.text.passwordLabel, n.text.passwordPlaceholder, 'login.password', 'current-password')}
${reordered ? '' : remember}
<div class="login-actions">${quick}${submit}</div>
${reordered ? remember : ''}
<input type="hidden" name="next" value="${esc(ctx.next ?? '/list')}">
</form></div>`
  return htmlDocument(n, ctx, {
    title: '로그인',
    body: page(n, { ...ctx, user: undefined }, '/login', content),
    script: loginScript,
  })
}

export function renderList(ctx: RenderContext): string {
  const n = names(ctx)
  const cardTag = n.has('tag-changes') ? 'div' : 'button'
  const cardAttrs = n.has('tag-changes') ? 'role="button" tabindex="0"' : 'type="button"'
  const cards = sampleItems
    .map(
      (item) =>
        `<${cardTag} ${cardAttrs} id="${n.id.itemPrefix}${item.id}" class="${n.cls.itemCard} ${n.css('item-card')}" aria-pressed="false"${truth(`list.item.${item.id}`)}><span class="${n.cls.itemName}" data-role="item-name">${esc(item.name)}</span><span class="${n.cls.itemMeta}" data-role="item-meta">${esc(item.category)} · ${formatPriceWon(item.priceWon)}</span></${cardTag}>`,
    )
    .join('\n')
  const search = n.removed
    ? ''
    : `<input id="${n.id.search}" type="search" name="q" class="${n.cls.control}" placeholder="${esc(n.text.searchPlaceholder)}" aria-label="${n.text.searchLabel}" autocomplete="off"${truth('list.search')}>`
  const filter = n.decoys
    ? `<input id="${n.id.tagFilter}" type="text" name="tag" class="${n.cls.control}" placeholder="태그 필터" aria-label="태그 필터" autocomplete="off"${truth('list.filter')}>`
    : ''
  const createInner = `${icon(n, icons.plus)}<span>${n.text.createBtn}</span>`
  const create = n.removed
    ? ''
    : wrap(
        n,
        n.has('tag-changes')
          ? `<a id="${n.id.createBtn}" class="${n.cls.primary}" role="button" href="#new"${truth('list.create')}>${createInner}</a>`
          : `<button id="${n.id.createBtn}" class="${n.cls.primary}" type="button"${truth('list.create')}>${createInner}</button>`,
      )
  const importBtn = n.decoys
    ? wrap(
        n,
        `<button id="${n.id.importBtn}" class="${n.cls.primary}" type="button"${truth('list.import')}>${icon(n, icons.upload)}<span>가져오기</span></button>`,
      )
    : ''
  const count = `<span class="count" id="${n.id.itemCount}" data-role="count">${sampleItems.length}개 항목</span>`
  const toolbar = n.has('reordered-blocks')
    ? `${importBtn}${create}${filter}${search}${count}`
    : `${filter}${search}${importBtn}${create}${count}`
  const options = ['무기', '방어구', '소모품', '장신구', '기타']
    .map((c) => `<option value="${c}">${c}</option>`)
    .join('')
  const modalField = (id: string, label: string, control: string) =>
    `<div class="${n.cls.field}"><label for="${id}">${label}</label>${control}</div>`
  const modalSave = n.removed
    ? ''
    : wrap(
        n,
        `<button id="${n.id.modalSave}" class="${n.cls.primary}" type="button"${truth('modal.save')}>${icon(n, icons.save)}<span>저장</span></button>`,
      )
  const modalDraft = n.decoys
    ? wrap(
        n,
        `<button id="${n.id.modalDraft}" class="${n.cls.primary}" type="button"${truth('modal.draft')}>임시 저장</button>`,
      )
    : ''
  const modalCancel = wrap(
    n,
    `<button id="${n.id.modalCancel}" class="${n.cls.secondary}" type="button"${truth('modal.cancel')}>취소</button>`,
  )
  const content = `<div class="list-layout">
<section class="list-main" aria-labelledby="list-title">
<h1 id="list-title">아이템 목록</h1>
<div class="${n.cls.toolbar} ${n.css('toolbar')}" role="search">${toolbar}</div>
<div id="${n.id.itemList}" class="${n.cls.grid}" data-role="grid">
${cards}
</div>
<p class="muted" data-role="empty" hidden>검색 결과가 없습니다</p>
</section>
<aside id="${n.id.detail}" class="${n.cls.detail} ${n.cls.card} ${n.css('detail')}" data-role="detail" aria-label="상세 정보">
<h2>상세 정보</h2>
<p class="muted" data-role="detail-empty">아이템을 선택하세요</p>
<div data-role="detail-body" hidden>
<p style="font-weight:700;font-size:17px;margin:0 0 4px" data-role="detail-name"></p>
<p class="muted" style="margin:0 0 4px" data-role="detail-category"></p>
<p style="margin:0 0 8px;font-weight:600" data-role="detail-price"></p>
<p style="margin:0 0 16px" data-role="detail-description"></p>
${wrap(n, `<button id="${n.id.detailClose}" class="${n.cls.secondary}" type="button"${truth('list.detail.close')}>닫기</button>`)}
</div>
</aside>
</div>
<div class="${n.cls.backdrop}" data-role="backdrop" hidden></div>
<div id="${n.id.modal}" class="${n.cls.modal}" role="dialog" aria-modal="true" aria-labelledby="${n.id.modalTitle}" hidden>
<h2 id="${n.id.modalTitle}">새 아이템</h2>
<p class="${n.cls.error}" data-role="modal-error" role="alert" hidden></p>
${modalField(n.id.itemName, '이름', `<input id="${n.id.itemName}" name="name" class="${n.cls.control}" placeholder="예: 전설의 검" autocomplete="off"${truth('modal.name')}>`)}
${modalField(n.id.itemPrice, '가격', `<input id="${n.id.itemPrice}" name="price" type="number" min="0" step="100" class="${n.cls.control}" placeholder="0"${truth('modal.price')}>`)}
${modalField(n.id.itemCategory, '분류', `<select id="${n.id.itemCategory}" name="category" class="${n.cls.control}"${truth('modal.category')}>${options}</select>`)}
<div class="modal-actions">${modalCancel}${modalDraft}${modalSave}</div>
</div>`
  const items = sampleItems.map((item) => ({
    id: item.id,
    name: item.name,
    category: item.category,
    price: formatPriceWon(item.priceWon),
    description: item.description,
  }))
  return htmlDocument(n, ctx, {
    title: '아이템 목록',
    body: page(n, ctx, '/list', content),
    script: listScript,
    vars: { ITEMS: items },
  })
}

export function renderSettings(ctx: RenderContext): string {
  const n = names(ctx)
  const s = ctx.settings
  const language = `<section class="${n.cls.block} ${n.cls.card}" data-block="language"><div class="${n.cls.field}" style="margin:0"><label for="${n.id.language}">언어</label><select id="${n.id.language}" name="language" class="${n.cls.control}"${truth('settings.language')}><option value="ko"${s.language === 'ko' ? ' selected' : ''}>한국어</option><option value="en"${s.language === 'en' ? ' selected' : ''}>English</option></select></div></section>`
  const notifications = `<section class="${n.cls.block} ${n.cls.card}" data-block="notifications"><label class="${n.cls.check}" style="margin:0 0 4px"><input type="checkbox" id="${n.id.notifications}" name="notifications"${s.notifications ? ' checked' : ''}${truth('settings.notifications')}>${n.text.notifications}</label><p class="muted" style="margin:0;font-size:14px">새 아이템과 이벤트 소식을 알려 드립니다.</p></section>`
  const radio = (id: string, value: 'light' | 'dark', label: string) =>
    `<label><input type="radio" id="${id}" name="theme" value="${value}"${s.theme === value ? ' checked' : ''}${truth(`settings.theme.${value}`)}>${label}</label>`
  const theme = `<section class="${n.cls.block} ${n.cls.card}" data-block="theme"><fieldset><legend>테마</legend><div class="radio-row">${radio(n.id.themeLight, 'light', '라이트')}${radio(n.id.themeDark, 'dark', '다크')}</div></fieldset></section>`
  const draft = n.decoys
    ? wrap(
        n,
        `<button id="${n.id.draftBtn}" class="${n.cls.primary}" type="button"${truth('settings.draft')}>임시 저장</button>`,
      )
    : ''
  const save = n.removed
    ? ''
    : wrap(
        n,
        `<button id="${n.id.saveBtn}" class="${n.cls.primary}" type="button"${truth('settings.save')}>${icon(n, icons.save)}<span>${n.text.saveBtn}</span></button>`,
      )
  const reordered = n.has('reordered-blocks')
  const blocks = reordered ? `${theme}${language}${notifications}` : `${language}${notifications}${theme}`
  const content = `<form class="settings-form" onsubmit="return false">
<div class="settings-head"><h1>설정</h1>${reordered ? `${draft}${save}` : ''}</div>
<div style="height:16px"></div>
${blocks}
${reordered ? '' : `<div class="form-actions">${draft}${save}</div>`}
</form>`
  return htmlDocument(n, ctx, { title: '설정', body: page(n, ctx, '/settings', content), script: settingsScript })
}

function shadowHtml(n: Names): string {
  const reset = n.decoys
    ? wrap(
        n,
        `<button id="${n.id.resetBtn}" class="${n.cls.widgetBtn}" type="button"${truth('widget.reset')}>초기화</button>`,
      )
    : ''
  const add = n.removed
    ? ''
    : wrap(
        n,
        `<button id="${n.id.addBtn}" class="${n.cls.widgetBtn}" type="button"${truth('widget.add')}><span class="${n.cls.icon}" aria-hidden="true">${icons.plus}</span><span>${n.text.addBtn}</span></button>`,
      )
  return `<style>
:host{display:block}
.row{display:flex;align-items:center;gap:12px}
${sel(n.cls.widgetBtn)}{display:inline-flex;align-items:center;gap:6px;height:40px;padding:0 16px;border-radius:8px;border:1px solid #2563eb;background:#eff4ff;color:#1d4ed8;font:inherit;font-weight:600;cursor:pointer}
${sel(n.cls.icon)}{display:inline-flex;width:16px;height:16px}
${sel(n.cls.icon)} svg{width:16px;height:16px}
${sel(n.cls.wrap)}{display:contents}
output{min-width:40px;font-size:20px;font-weight:700;text-align:center}
</style>
<div class="row"><span>수량</span>${reset}${add}<output id="${n.id.count}" aria-live="polite">0</output></div>`
}

export function renderWidgets(ctx: RenderContext): string {
  const n = names(ctx)
  const buyClass = n.css('buy-button')
  const content = `<h1>위젯</h1>
<section class="${n.cls.card}" style="margin-bottom:16px;width:560px"><h2>수량 선택</h2><p class="muted" style="margin:0 0 12px">섀도 DOM 안의 위젯입니다.</p><qa-stepper id="${n.id.widget}"></qa-stepper></section>
<section class="${n.cls.card}" style="width:560px"><h2>동적 클래스</h2><p class="muted" style="margin:0 0 12px">버튼의 클래스 이름은 빌드마다 바뀝니다.</p>${wrap(
    n,
    `<button id="${n.id.buyBtn}" class="${buyClass}" type="button"${truth('widget.buy')}>${n.text.buyBtn}</button>`,
  )} <span id="${n.id.buyStatus}" data-role="buy-status"></span></section>`
  const extraCss = `.${buyClass}{display:inline-flex;align-items:center;height:40px;padding:0 18px;border-radius:8px;border:0;background:#16a34a;color:#fff;font:inherit;font-weight:600;cursor:pointer}`
  return htmlDocument(n, ctx, {
    title: '위젯',
    body: page(n, ctx, '/widgets', content),
    script: widgetsScript,
    vars: { SHADOW_HTML: shadowHtml(n) },
    extraCss,
  })
}

export function renderFrame(ctx: RenderContext): string {
  const n = names(ctx)
  const src = `/frame-inner${ctx.variantQuery ? `?${ctx.variantQuery}` : ''}`
  const content = `<h1>메모 보내기</h1><p class="muted">같은 출처의 iframe 안에 있는 양식입니다.</p>
<iframe id="${n.id.frame}" src="${esc(src)}" title="메모 프레임" width="640" height="220"></iframe>`
  return htmlDocument(n, ctx, { title: '메모', body: page(n, ctx, '/frame', content), script: '' })
}

export function renderFrameInner(ctx: RenderContext): string {
  const n = names(ctx)
  const clear = n.decoys
    ? wrap(
        n,
        `<button id="${n.id.clearBtn}" class="${n.cls.primary}" type="button"${truth('frame.clear')}>지우기</button>`,
      )
    : ''
  const send = n.removed
    ? ''
    : wrap(
        n,
        `<button id="${n.id.sendBtn}" class="${n.cls.primary}" type="button"${truth('frame.send')}>${n.text.sendBtn}</button>`,
      )
  const body = `<div style="padding:20px">
<div class="${n.cls.field}"><label for="${n.id.memo}">메모</label><input id="${n.id.memo}" name="memo" class="${n.cls.control}" placeholder="메모를 입력하세요" autocomplete="off"${truth('frame.memo')}></div>
<div class="form-actions">${clear}${send}</div>
<p><output id="${n.id.sent}" aria-live="polite"></output></p>
</div>`
  return htmlDocument(n, ctx, { title: '메모 프레임', body, script: frameInnerScript, bodyClass: 'frame-body' })
}

export function renderNotFound(ctx: RenderContext, path: string): string {
  const n = names(ctx)
  const content = `<h1>페이지를 찾을 수 없습니다</h1><p class="muted">${esc(path)} 주소에는 페이지가 없습니다.</p><p><a href="/list">목록으로 돌아가기</a></p>`
  return htmlDocument(n, ctx, { title: '찾을 수 없음', body: page(n, ctx, '', content), script: '' })
}

export function renderBadRequest(ctx: RenderContext, message: string, hint: string | undefined): string {
  const n = names(ctx)
  const content = `<h1>잘못된 요청</h1><p>${esc(message)}</p>${hint ? `<p class="muted">${esc(hint)}</p>` : ''}`
  return htmlDocument(n, ctx, { title: '잘못된 요청', body: page(n, ctx, '', content), script: '' })
}

function names(ctx: RenderContext): Names {
  return namesFor(ctx.mutations, ctx.classSeed)
}
