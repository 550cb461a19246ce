import { GAME_BACKGROUND, GAME_HEIGHT, GAME_LAYOUTS, GAME_WIDTH } from './layout'

/** The game as one HTML page: a canvas, drawn by hand, polling its server for the build to show. */
export function gamePageHtml(): string {
  return `<!doctype html>
<html lang="ko" translate="no" class="notranslate"><head><meta charset="utf-8"><meta name="google" content="notranslate"><title>Star Quest</title>
<style>html,body{margin:0;padding:0;overflow:hidden;background:${GAME_BACKGROUND};cursor:default}canvas{display:block}</style>
</head><body><canvas id="c" width="${GAME_WIDTH}" height="${GAME_HEIGHT}"></canvas>
<script>
const LAYOUTS = ${JSON.stringify(GAME_LAYOUTS)};
const c = document.getElementById('c'); const g = c.getContext('2d');
let version = 1, epoch = -1, scene = 'menu', sound = false, player = '';
const FONT = '"Noto Sans CJK KR","Noto Sans KR","Noto Sans CJK JP",sans-serif';
function text(s, x, y, px, color, align) { g.fillStyle = color; g.font = 'bold ' + px + 'px ' + FONT; g.textAlign = align || 'center'; g.textBaseline = 'middle'; g.fillText(s, x, y) }
function button(b) {
  g.fillStyle = b.color; g.beginPath(); g.roundRect(b.x, b.y, b.width, b.height, Math.round(b.height / 6)); g.fill();
  text(b.label, b.x + b.width / 2, b.y + b.height / 2 + 1, Math.round(b.height * 0.42), '#ffffff');
}
function draw() {
  g.fillStyle = '${GAME_BACKGROUND}'; g.fillRect(0, 0, ${GAME_WIDTH}, ${GAME_HEIGHT});
  const L = LAYOUTS[version];
  if (scene === 'level') {
    text('레벨 1 · Level 1', 640, 200, 48, '#f5c542');
    text('Player: ' + player, 640, 320, 32, '#ffffff');
    L.level.forEach(button);
  } else {
    text('별의 모험 · Star Quest', version === 1 ? 640 : 420, version === 1 ? 150 : 120, 52, '#f5c542');
    L.menu.forEach(button);
    if (scene === 'settings') {
      g.fillStyle = 'rgba(0,0,0,0.6)'; g.fillRect(0, 0, ${GAME_WIDTH}, ${GAME_HEIGHT});
      g.fillStyle = '#2b2b3c'; g.fillRect(300, 180, 680, 360);
      text('설정', 640, 220, 34, '#ffffff');
      L.settings.forEach(button);
      const s = L.settings[0];
      text(sound ? 'ON' : 'OFF', s.x + s.width + 40, s.y + s.height / 2, 28, sound ? '#5cd65c' : '#aaaaaa', 'left');
    }
  }
}
function go(next) { scene = next; draw(); fetch('/event?scene=' + scene + '&version=' + version + '&epoch=' + epoch).catch(() => {}) }
c.addEventListener('mousedown', (e) => {
  const list = scene === 'settings' ? LAYOUTS[version].settings : LAYOUTS[version][scene];
  const b = list.find((b) => e.clientX >= b.x && e.clientX < b.x + b.width && e.clientY >= b.y && e.clientY < b.y + b.height);
  if (!b) return;
  if (b.id === 'sound') { sound = !sound; draw(); return }
  if (b.to) go(b.to);
});
document.addEventListener('keydown', (e) => {
  if (scene !== 'level') return;
  if (e.key === 'Backspace') player = player.slice(0, -1);
  else if (e.key.length === 1 && player.length < 16) player += e.key;
  else return;
  draw();
});
async function poll() {
  try {
    const s = await (await fetch('/state')).json();
    if (s.epoch !== epoch) { epoch = s.epoch; version = s.version; sound = false; player = ''; go('menu') }
  } catch {}
  setTimeout(poll, 100);
}
poll();
</script></body></html>`
}
