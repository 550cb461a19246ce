import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** How a page differs from the recorded one (seed 003 test plan: DOM, class and position changes). */
export interface Variant {
  /** ids renamed */
  renameIds?: boolean
  /** dynamic class names regenerated (css-<hash>), stable classes renamed */
  renameClasses?: boolean
  /** extra wrapper elements around controls */
  wrap?: boolean
  /** a banner that pushes everything down and a block moved */
  shift?: boolean
  /** a decoy button with the same classes as the login button */
  decoy?: boolean
  /** the login button removed (a similar button remains) */
  removeLogin?: boolean
  /** the login button's label reworded (로그인 → 로그인하기) */
  reword?: boolean
}

const id = (v: Variant, name: string) => (v.renameIds ? `${name}-v2` : name)
const cls = (v: Variant, name: string) => (v.renameClasses ? `${name}--x css-77c1e0` : `${name} css-8f3a2b`)
const wrap = (v: Variant, html: string) =>
  v.wrap ? `<div class="wrapper"><span class="inner">${html}</span></div>` : html

/**
 * Ground truth the tool cannot see: interactive elements carry a JS expando `__truth` (not an attribute), and
 * every click the page receives is logged in `window.__clicks` by the key of the element it reached.
 */
const TRUTH_SCRIPT = `<script>
window.__clicks = [];
for (const [sel, key] of Object.entries(window.__truthMap || {})) { const el = document.querySelector(sel); if (el) el.__truth = key }
window.addEventListener('click', (e) => {
  const hit = e.composedPath().find((n) => n && n.__truth);
  window.__clicks.push(hit ? hit.__truth : null);
}, true);
</script>`

export function mainPage(v: Variant = {}): string {
  const login = v.removeLogin
    ? ''
    : wrap(
        v,
        `<button id="${id(v, 'login')}" class="${cls(v, 'btn')}" type="submit"><span class="icon"></span> ${v.reword ? '로그인하기' : '로그인'}</button>`,
      )
  const decoy = v.decoy ? `<button id="temp" class="${cls(v, 'btn')}" type="button">임시 저장</button>` : ''
  const truth: Record<string, string> = {
    [`#${id(v, 'user')}`]: 'user',
    [`#${id(v, 'pw')}`]: 'pw',
    [`#${id(v, 'login')}`]: 'login',
    '#temp': 'decoy',
    '.gear': 'gear',
    [`#${id(v, 'lang')}`]: 'lang',
  }
  return `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>fixture</title>
<style>body{font-family:"Noto Sans CJK KR",sans-serif;margin:0;padding:20px} button{padding:10px 20px;margin:8px} .icon{display:inline-block;width:16px;height:16px;background:#36c} .banner{height:90px;background:#fec}</style></head>
<body>
${v.shift ? '<div class="banner">새 소식: 점검 안내</div>' : ''}
<h1>녹화 테스트</h1>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'submitted ' + this.user.value">
 <label>아이디 <input name="user" id="${id(v, 'user')}" class="${cls(v, 'field')}" placeholder="아이디를 입력하세요"></label><br>
 <label>비밀번호 <input name="pw" type="password" id="${id(v, 'pw')}"></label><br>
 ${v.shift ? '' : login}${decoy}
 ${v.shift ? login : ''}
</form>
<div id="out"></div>
<button aria-label="설정 열기" class="gear" onclick="document.getElementById('out').textContent='settings'">⚙</button>
<select id="${id(v, 'lang')}" name="lang"><option>한국어</option><option>English</option></select>
${wrap(v, '<shadow-widget></shadow-widget>')}
<iframe id="${id(v, 'frame')}" src="/inner${v.renameIds ? '?v2' : ''}" style="width:400px;height:120px;border:2px solid #888"></iframe>
<p><a href="/next" id="${id(v, 'next')}">다음 페이지</a></p>
<p id="late-slot"><button id="${id(v, 'reveal')}" onclick="setTimeout(() => { const b = document.createElement('button'); b.id = 'late'; b.textContent = '늦게 나온 버튼'; b.onclick = () => { b.textContent = '눌림' }; this.after(b) }, 100)">보여 주기</button></p>
<script>
customElements.define('shadow-widget', class extends HTMLElement {
  constructor() { super(); const r = this.attachShadow({ mode: 'open' });
    r.innerHTML = '${v.wrap ? '<div>' : ''}<button id="${id(v, 'sbtn')}" class="${cls(v, 's')}">그림자 버튼</button>${v.wrap ? '</div>' : ''}';
    const b = r.querySelector('button'); b.__truth = 'shadow'; b.onclick = () => { b.textContent = '눌림' } }
})
window.__truthMap = ${JSON.stringify(truth)};
</script>
${TRUTH_SCRIPT}
</body></html>`
}

export function innerPage(renamed: boolean): string {
  return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;padding:8px">
${renamed ? '<span>새 항목</span> ' : ''}<button id="${renamed ? 'ibtn-v2' : 'ibtn'}" onclick="this.textContent='clicked'">프레임 버튼</button> <input name="q" placeholder="검색">
<script>window.__truthMap = {'button': 'frame-button'}</script>${TRUTH_SCRIPT}</body></html>`
}

export function nextPage(v: Variant = {}): string {
  return `<!doctype html><html lang="ko"><head><meta charset="utf-8"></head><body style="font-family:sans-serif;padding:20px">
${v.shift ? '<div style="height:120px">배너</div>' : ''}<h1>두 번째 페이지</h1>
<ul>${['사과', '바나나', '체리']
    .map(
      (f) =>
        `<li><button class="${cls(v, 'item')}" onclick="document.title='${f}'">${f} 담기</button> <button class="remove" onclick="this.textContent='삭제됨'">삭제</button></li>`,
    )
    .join('')}</ul>
<script>window.__truthMap = {}; </script>${TRUTH_SCRIPT}
<script>document.querySelectorAll('li > button:first-child').forEach((b, i) => { b.__truth = 'item-' + i })</script></body></html>`
}

/** The recorder's hard cases, served on a free loopback port; `setVariant` changes the pages for replay. */
export async function startFixtureServer(initial: Variant = {}): Promise<{
  url: string
  server: Server
  setVariant(v: Variant): void
  close(): Promise<void>
}> {
  let variant = initial
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const body =
      url.pathname === '/'
        ? mainPage(variant)
        : url.pathname === '/inner'
          ? innerPage(url.search.includes('v2'))
          : url.pathname === '/next'
            ? nextPage(variant)
            : null
    if (!body) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    setVariant: (v) => {
      variant = v
    },
    close: () => new Promise((r) => server.close(() => r())),
  }
}
