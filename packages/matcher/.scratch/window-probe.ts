import sharp from 'sharp'
import { contextAgreement, elementStillThere, scoreResampled } from '../src/locate-on-screen'
import { structureFrame } from '../src/structure-frame'
const load = async (p: string) => {
  const { data, info } = await sharp(p).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { width: info.width, height: info.height, channels: 4 as const, data: new Uint8Array(data) }
}
const [caseDir, variant, stepStr, nowW, nowH, nowX, nowY] = process.argv.slice(2)
const c = JSON.parse(await import('node:fs').then((f) => f.readFileSync(`${caseDir}/case.json`, 'utf8')))
const step = Number(stepStr)
const a = c.actions[step]
const rec = await load(`${caseDir}/${a.screenshot_before_path}`)
const crop = await load(`${caseDir}/${a.element_crop_path}`)
const now = await load(variant)
const recWin = { x: 60, y: 50, w: 480, h: 505 }
const nowWin = { x: +nowX, y: +nowY, w: +nowW, h: +nowH }
const sx = nowWin.w / recWin.w
const sy = nowWin.h / recWin.h
const s = (sx + sy) / 2
const cb = a.element_crop_box
const map = { x: nowWin.x + (cb.x - recWin.x) * sx, y: nowWin.y + (cb.y - recWin.y) * sy }
const ns = structureFrame(now)
const cs = structureFrame(crop)
for (const [name, dx, dy] of [
  ['mapped', 0, 0],
  ['left cell', -70, 0],
  ['right cell', 70, 0],
  ['up', 0, -70],
  ['down', 0, 70],
] as const) {
  let best = { v: -1, x: 0, y: 0 }
  let bestE = { v: -1, x: 0, y: 0 }
  for (let ddy = -10; ddy <= 10; ddy++)
    for (let ddx = -10; ddx <= 10; ddx++) {
      const box = {
        x: Math.round(map.x + dx + ddx),
        y: Math.round(map.y + dy + ddy),
        width: Math.round(cb.width * s),
        height: Math.round(cb.height * s),
      }
      const v = scoreResampled(now, crop, box)
      if (v > best.v) best = { v, x: box.x, y: box.y }
      const e = scoreResampled(ns, cs, box)
      if (e > bestE.v) bestE = { v: e, x: box.x, y: box.y }
    }
  const box = { x: best.x, y: best.y, width: Math.round(cb.width * s), height: Math.round(cb.height * s) }
  const still = elementStillThere(now, crop, box, 0.8, s, 0.7)
  const ctx = contextAgreement(now, rec, cb, box, s)
  console.log(
    name,
    'pix',
    best.v.toFixed(3),
    best.x - Math.round(map.x + dx),
    best.y - Math.round(map.y + dy),
    still.detail,
    'ctx',
    ctx.toFixed(2),
    '| edges',
    bestE.v.toFixed(3),
    bestE.x - Math.round(map.x + dx),
    bestE.y - Math.round(map.y + dy),
  )
}
