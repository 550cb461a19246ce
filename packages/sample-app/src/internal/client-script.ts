/**
 * Browser-side scripts, as plain ES5-ish strings (no build step, no framework).
 *
 * The common runtime claims every `[data-t]` element into a closure-private WeakMap (ground truth),
 * strips the attribute, and reports click/input/change/special-key events to POST /__events with the
 * truth id of the nearest claimed element on the event's composed path. Nothing of it is reachable
 * from the page's globals, attributes, text or accessible names.
 */
export const commonRuntime = `
var truthOf = new WeakMap();
var byTruth = new Map();
var seen = new WeakSet();
var seq = 0;
function claim(root) {
  var els = root.querySelectorAll('[data-t]');
  for (var i = 0; i < els.length; i++) {
    var el = els[i];
    var id = el.getAttribute('data-t');
    truthOf.set(el, id);
    byTruth.set(id, el);
    el.removeAttribute('data-t');
  }
}
function register(el, id) { truthOf.set(el, id); byTruth.set(id, el); }
function el(id) { return byTruth.get(id) || null; }
function truthTarget(e) {
  var path = e.composedPath();
  for (var i = 0; i < path.length; i++) {
    var id = truthOf.get(path[i]);
    if (id) return id;
  }
  return null;
}
function report(rec) {
  seq += 1;
  rec.seq = seq;
  rec.page = location.pathname;
  rec.variant = VARIANT;
  rec.frame = window !== window.top;
  try {
    fetch('/__events', { method: 'POST', keepalive: true, headers: { 'content-type': 'application/json' }, body: JSON.stringify(rec) }).catch(function () {});
  } catch (err) {}
}
function onEvent(e) {
  if (seen.has(e)) return;
  seen.add(e);
  if (e.type === 'keydown' && (!e.key || e.key.length === 1)) return;
  var rec = { type: e.type, truth: truthTarget(e), trusted: e.isTrusted };
  if (e.type === 'click') { rec.x = e.clientX; rec.y = e.clientY; }
  if (e.type === 'keydown') rec.key = e.key;
  if (e.type === 'input' || e.type === 'change') {
    var t = e.composedPath()[0];
    if (t && t.type === 'password') rec.value = new Array(String(t.value).length + 1).join('*');
    else if (t && (t.type === 'checkbox' || t.type === 'radio')) rec.value = String(t.checked);
    else if (t && 'value' in t) rec.value = String(t.value);
  }
  report(rec);
}
function listen(root) {
  ['click', 'input', 'change', 'keydown'].forEach(function (k) { root.addEventListener(k, onEvent, true); });
}
function showToast(text) {
  var t = document.querySelector('[role=status]');
  if (!t) return;
  t.textContent = text;
  t.hidden = false;
}
function on(id, type, fn) { var x = el(id); if (x) x.addEventListener(type, fn); }
claim(document);
listen(document);
`

export const loginScript = `
var form = document.querySelector('form');
form.addEventListener('submit', function (e) {
  var user = el('login.username'), pass = el('login.password');
  if (!user.value.trim() || !pass.value) {
    e.preventDefault();
    var err = document.querySelector('[role=alert]');
    err.textContent = '아이디와 비밀번호를 입력하세요';
    err.hidden = false;
  }
});
on('login.quick', 'click', function () {
  var err = document.querySelector('[role=alert]');
  err.textContent = '간편 로그인은 준비 중입니다';
  err.hidden = false;
});
`

export const listScript = String.raw`
var cards = [];
ITEMS.forEach(function (it) { var c = el('list.item.' + it.id); if (c) cards.push({ item: it, el: c }); });
var count = document.querySelector('[data-role=count]');
var empty = document.querySelector('[data-role=empty]');
function applyFilter() {
  var s = el('list.search');
  var q = s ? s.value.trim().toLowerCase() : '';
  var shown = 0;
  cards.forEach(function (c) {
    var match = !q || c.item.name.toLowerCase().indexOf(q) >= 0 || c.item.category.indexOf(q) >= 0;
    c.el.hidden = !match;
    if (match) shown += 1;
  });
  count.textContent = shown + '개 항목';
  empty.hidden = shown !== 0;
}
on('list.search', 'input', applyFilter);
var detail = document.querySelector('[data-role=detail]');
function select(c) {
  cards.forEach(function (o) { o.el.setAttribute('aria-pressed', String(o === c)); });
  detail.querySelector('[data-role=detail-empty]').hidden = true;
  detail.querySelector('[data-role=detail-body]').hidden = false;
  detail.querySelector('[data-role=detail-name]').textContent = c.item.name;
  detail.querySelector('[data-role=detail-category]').textContent = c.item.category;
  detail.querySelector('[data-role=detail-price]').textContent = c.item.price;
  detail.querySelector('[data-role=detail-description]').textContent = c.item.description;
}
function bindCard(c) {
  c.el.addEventListener('click', function () { select(c); });
  c.el.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(c); } });
}
cards.forEach(bindCard);
on('list.detail.close', 'click', function () {
  cards.forEach(function (o) { o.el.setAttribute('aria-pressed', 'false'); });
  detail.querySelector('[data-role=detail-empty]').hidden = false;
  detail.querySelector('[data-role=detail-body]').hidden = true;
});
var modal = document.querySelector('[role=dialog]');
var backdrop = document.querySelector('[data-role=backdrop]');
function openModal(e) { if (e) e.preventDefault(); modal.hidden = false; backdrop.hidden = false; el('modal.name').focus(); }
function closeModal() {
  modal.hidden = true; backdrop.hidden = true;
  el('modal.name').value = ''; el('modal.price').value = '';
  el('modal.category').selectedIndex = 0;
  modal.querySelector('[data-role=modal-error]').hidden = true;
}
on('list.create', 'click', openModal);
on('list.create', 'keydown', function (e) { if (e.key === ' ') openModal(e); });
on('modal.cancel', 'click', closeModal);
document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !modal.hidden) closeModal(); });
var added = 0;
on('modal.save', 'click', function () {
  var name = el('modal.name').value.trim();
  if (!name) {
    var err = modal.querySelector('[data-role=modal-error]');
    err.textContent = '이름을 입력하세요';
    err.hidden = false;
    return;
  }
  added += 1;
  var priceNum = Math.max(0, Math.floor(Number(el('modal.price').value) || 0));
  var item = { id: 'new-' + added, name: name, category: el('modal.category').value, price: String(priceNum).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + '원', description: '새로 추가된 아이템' };
  var template = cards.length ? cards[0].el : null;
  var card = template ? template.cloneNode(true) : document.createElement('button');
  card.id = template ? template.id.replace(/\d+$/, '') + item.id : '';
  card.hidden = false;
  card.setAttribute('aria-pressed', 'false');
  card.querySelector('[data-role=item-name]').textContent = item.name;
  card.querySelector('[data-role=item-meta]').textContent = item.category + ' · ' + item.price;
  document.querySelector('[data-role=grid]').appendChild(card);
  register(card, 'list.item.' + item.id);
  var c = { item: item, el: card };
  cards.push(c);
  bindCard(c);
  closeModal();
  applyFilter();
  showToast('저장되었습니다');
});
on('modal.draft', 'click', function () { showToast('임시 저장되었습니다'); });
on('list.import', 'click', function () { showToast('가져올 파일이 없습니다'); });
`

export const settingsScript = `
on('settings.save', 'click', function () {
  var theme = el('settings.theme.dark').checked ? 'dark' : 'light';
  var body = { language: el('settings.language').value, notifications: el('settings.notifications').checked, theme: theme };
  fetch('/settings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .then(function (r) {
      if (!r.ok) throw new Error('save failed');
      document.body.classList.toggle('theme-dark', theme === 'dark');
      showToast('저장되었습니다');
    })
    .catch(function () { showToast('저장하지 못했습니다'); });
});
on('settings.draft', 'click', function () { showToast('임시 저장되었습니다'); });
`

export const widgetsScript = `
customElements.define('qa-stepper', class extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    var root = this.attachShadow({ mode: 'open' });
    root.innerHTML = SHADOW_HTML;
    claim(root);
    listen(root);
    var n = 0;
    var out = root.querySelector('output');
    var add = el('widget.add'), reset = el('widget.reset');
    if (add) add.addEventListener('click', function () { n += 1; out.textContent = String(n); });
    if (reset) reset.addEventListener('click', function () { n = 0; out.textContent = '0'; });
  }
});
on('widget.buy', 'click', function () { document.querySelector('[data-role=buy-status]').textContent = '구매 완료'; });
`

export const frameInnerScript = `
on('frame.send', 'click', function () {
  document.querySelector('output').textContent = '전송됨: ' + el('frame.memo').value;
});
on('frame.clear', 'click', function () {
  el('frame.memo').value = '';
  document.querySelector('output').textContent = '';
});
`
