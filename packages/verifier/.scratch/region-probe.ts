import sharp from 'sharp'
import { assessExpectedChange } from '../src/expected-change'
const load = async (p: string) => {
  const { data, info } = await sharp(p).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { width: info.width, height: info.height, data: new Uint8Array(data) }
}
const [caseDir, variant, stepStr] = process.argv.slice(2)
const fs = await import('node:fs')
const c = JSON.parse(fs.readFileSync(`${caseDir}/case.json`, 'utf8'))
const step = Number(stepStr)
const rep = JSON.parse(fs.readFileSync(fs.readdirSync(`${caseDir}/report-${variant}`).filter((f: string) => f.endsWith('.json')).map((f: string) => `${caseDir}/report-${variant}/${f}`)[0], 'utf8'))
const v = rep.verification_results[step]
const a = c.actions[step]
const beforePath = a.screenshot_before_path ?? c.actions[step - 1].screenshot_path
const region = v.details.region
const r = assessExpectedChange({
  recordedBefore: await load(`${caseDir}/${beforePath}`),
  recordedAfter: await load(`${caseDir}/${a.screenshot_path}`),
  actualAfter: await load(v.actual_screenshot),
  displacement: region.displacement,
  scale: region.scale,
  anchor: a.action_type === 'type' ? { x: c.actions[step - 1].x, y: c.actions[step - 1].y } : { x: a.x, y: a.y },
})
console.log(variant, step, 'was', v.region_similarity.toFixed(3), 'now', r.regionSimilarity.toFixed(3), r.pixelSimilarity.toFixed(3), 'still', r.unchangedShare)
