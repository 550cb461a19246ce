import { sel } from './html'
import type { Names } from './names'

const buttonBase =
  'display:inline-flex;align-items:center;justify-content:center;gap:6px;height:40px;padding:0 18px;border-radius:8px;border:1px solid transparent;font-size:15px;font-weight:600;cursor:pointer;text-decoration:none;white-space:nowrap;'

/** The stylesheet for one render: class selectors follow the active class names. */
export function styles(n: Names): string {
  const c = n.cls
  return `
*,*::before,*::after{box-sizing:border-box;animation:none!important;transition:none!important;scroll-behavior:auto!important}
html{font-family:"Noto Sans CJK KR","Noto Sans",sans-serif;font-size:15px;line-height:1.5;color:#1f2933;background:#f4f6f8;-webkit-font-smoothing:antialiased}
body{margin:0;min-height:100vh}
body.theme-dark{background:#1b2430;color:#e6edf3}
input,button,select,textarea{font:inherit;caret-color:transparent}
h1{font-size:24px;margin:0 0 16px;font-weight:700}
h2{font-size:17px;margin:0 0 8px;font-weight:700}
[hidden]{display:none!important}
${sel(c.header)}{height:56px;background:#1e3a5f;color:#fff;display:flex;align-items:center;padding:0 32px;gap:24px}
${sel(c.brand)}{font-weight:700;font-size:17px;color:#fff;text-decoration:none}
${sel(c.nav)}{display:flex;gap:8px;align-items:center;margin-left:auto}
${sel(c.navLink)}{color:#dbe7f3;text-decoration:none;padding:6px 12px;border-radius:6px}
${sel(c.navLink)}[aria-current=page]{background:rgba(255,255,255,.16);color:#fff}
${sel(c.page)}{padding:24px 32px;max-width:1280px}
.update-banner-slot{display:flow-root;height:80px}
.update-banner{height:64px;margin:0 0 16px;padding:0 20px;display:flex;align-items:center;background:#fff4d6;border:1px solid #f0c75e;border-radius:8px;color:#6b4e00;font-weight:600}
${sel(c.primary)}{${buttonBase}background:#2563eb;color:#fff;border-color:#2563eb}
${sel(c.secondary)}{${buttonBase}background:#fff;color:#1f2933;border-color:#c5ced8}
${sel(c.ghost)}{${buttonBase}height:34px;padding:0 12px;background:transparent;color:#fff;border-color:rgba(255,255,255,.5)}
${sel(c.wrap)}{display:contents}
${sel(c.icon)}{display:inline-flex;width:18px;height:18px}
${sel(c.icon)} svg{width:18px;height:18px}
${sel(c.card)}{background:#fff;border:1px solid #dde3ea;border-radius:12px;padding:24px}
body.theme-dark ${sel(c.card)}{background:#243040;border-color:#364456}
${sel(c.field)}{display:flex;flex-direction:column;gap:6px;margin-bottom:16px}
${sel(c.field)} label{font-weight:600;font-size:14px}
${sel(c.control)}{height:40px;padding:0 12px;border:1px solid #c5ced8;border-radius:8px;background:#fff;color:#1f2933;width:100%}
${sel(c.check)}{display:flex;align-items:center;gap:8px;margin:0 0 16px;font-size:14px}
${sel(c.check)} input{width:18px;height:18px;margin:0}
${sel(c.error)}{color:#c62828;font-size:14px;margin:0 0 12px}
${sel(c.toolbar)}{display:flex;gap:12px;align-items:center;margin-bottom:16px}
${sel(c.toolbar)} ${sel(c.control)}{width:260px}
.list-layout{display:flex;gap:24px;align-items:flex-start}
.list-main{flex:1;min-width:0}
${sel(c.grid)}{display:grid;grid-template-columns:repeat(4,1fr);gap:12px}
${sel(c.itemCard)}{display:flex;flex-direction:column;align-items:flex-start;gap:2px;height:64px;padding:10px 14px;background:#fff;border:1px solid #dde3ea;border-radius:10px;text-align:left;cursor:pointer;font-size:15px;color:#1f2933}
${sel(c.itemCard)}[aria-pressed=true]{border-color:#2563eb;box-shadow:inset 0 0 0 1px #2563eb}
${sel(c.itemName)}{font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:100%}
${sel(c.itemMeta)}{font-size:13px;color:#5b6b7c}
${sel(c.detail)}{width:300px;flex:none}
.muted{color:#5b6b7c}
.count{color:#5b6b7c;font-size:14px;margin-left:auto;white-space:nowrap}
${sel(c.backdrop)}{position:fixed;inset:0;background:rgba(15,23,42,.45)}
${sel(c.modal)}{position:fixed;top:120px;left:50%;width:440px;margin-left:-220px;background:#fff;border-radius:12px;padding:24px;box-shadow:0 10px 30px rgba(0,0,0,.25);color:#1f2933}
.modal-actions{display:flex;gap:8px;justify-content:flex-end;margin-top:8px}
${sel(c.toast)}{position:fixed;right:32px;bottom:32px;background:#1f2933;color:#fff;padding:12px 20px;border-radius:8px;font-weight:600}
${sel(c.block)}{margin-bottom:16px}
.settings-head{display:flex;align-items:center;gap:8px}
.settings-head h1{margin:0 auto 0 0}
.settings-form{width:560px}
.settings-form fieldset{border:0;margin:0;padding:0}
.settings-form legend{font-weight:700;font-size:17px;padding:0;margin-bottom:8px}
.radio-row{display:flex;gap:24px}
.radio-row label{display:flex;align-items:center;gap:6px}
.form-actions{display:flex;gap:8px;margin-top:8px}
.login-wrap{width:400px;margin:40px auto 0}
.login-wrap ${sel(c.primary)},.login-wrap ${sel(c.secondary)}{width:100%}
.login-actions{display:flex;flex-direction:column;gap:8px;margin-bottom:16px}
iframe{border:1px solid #dde3ea;border-radius:8px;background:#fff}
`
}
