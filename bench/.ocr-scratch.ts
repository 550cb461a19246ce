import { createUIAnalyzer } from '../packages/vision/src/index'
import { decodeImage } from '../packages/recorder-desktop/src/index'
const [file, x0, y0, x1, y1] = process.argv.slice(2)
const frame = await decodeImage(file as string)
const a = createUIAnalyzer({ provider: 'ocr', fallback: [] } as never)
const t = performance.now()
const r = await a.analyzeScreen(frame as never)
console.log(`ocr ${Math.round(performance.now() - t)} ms`)
for (const e of r.elements) {
  const b = e.boundingBox
  if (x0 && (b.x < +x0 || b.y < +y0 || b.x > +(x1 as string) || b.y > +(y1 as string))) continue
  console.log(JSON.stringify(e.text), b.x, b.y, b.width, b.height, e.confidence)
}
await a.close()
