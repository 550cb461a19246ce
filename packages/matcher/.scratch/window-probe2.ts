import sharp from 'sharp'
import { matchAtWindowPlace } from '../src/locate-on-screen'
import { structureFrame } from '../src/structure-frame'
const load = async (p: string) => {
  const { data, info } = await sharp(p).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { width: info.width, height: info.height, channels: 4 as const, data: new Uint8Array(data) }
}
const [caseDir, screenPath, stepStr, nowW, nowH, nowX, nowY] = process.argv.slice(2)
const c = JSON.parse(await import('node:fs').then((f) => f.readFileSync(`${caseDir}/case.json`, 'utf8')))
const a = c.actions[Number(stepStr)]
const rec = await load(`${caseDir}/${a.screenshot_before_path}`)
const crop = await load(`${caseDir}/${a.element_crop_path}`)
const now = await load(screenPath)
const window = {
  recorded: { x: 60, y: 50, width: 480, height: 505 },
  now: { x: +nowX, y: +nowY, width: +nowW, height: +nowH },
}
const cb = a.element_crop_box
console.log('pixels', matchAtWindowPlace(now, crop, cb, rec, window, { threshold: 0.85, centre: 0.8 }))
console.log(
  'edges ',
  matchAtWindowPlace(structureFrame(now), structureFrame(crop), cb, structureFrame(rec), window, {
    threshold: 0.9,
    centre: 0.85,
  }),
)
