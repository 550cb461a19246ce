import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Pages for the recorder's hard cases (seed 003 test plan), served on a free loopback port. */
export const PAGES: Record<string, string> = {
  '/': `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>fixture</title>
<style>body{font-family:sans-serif;margin:0;padding:20px} button{padding:10px 20px;margin:8px} .icon{display:inline-block;width:16px;height:16px;background:#36c}</style></head>
<body>
<h1>녹화 테스트</h1>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'submitted ' + this.user.value">
 <label>아이디 <input name="user" id="user" placeholder="아이디를 입력하세요"></label><br>
 <label>비밀번호 <input name="pw" type="password" id="pw"></label><br>
 <button id="login" class="btn css-8f3a2b" type="submit"><span class="icon"></span> 로그인</button>
</form>
<div id="out"></div>
<button aria-label="설정 열기" class="gear" onclick="document.getElementById('out').textContent='settings'">⚙</button>
<select id="lang" name="lang"><option>한국어</option><option>English</option></select>
<shadow-widget></shadow-widget>
<iframe id="frame" src="/inner" style="width:400px;height:120px;border:2px solid #888"></iframe>
<script>
customElements.define('shadow-widget', class extends HTMLElement {
  constructor() { super(); const r = this.attachShadow({ mode: 'open' });
    r.innerHTML = '<button id="sbtn" onclick="this.textContent=\\'눌림\\'">그림자 버튼</button>' }
})
</script>
</body></html>`,
  '/inner': `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;padding:8px">
<button id="ibtn" onclick="this.textContent='clicked'">프레임 버튼</button> <input name="q" placeholder="검색"></body></html>`,
}

export async function startFixtureServer(pages: Record<string, string> = PAGES): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const body = pages[path]
    if (!body) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, server, close: () => new Promise((r) => server.close(() => r())) }
}
