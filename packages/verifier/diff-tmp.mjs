import sharp from 'sharp'
const [a, b, out] = process.argv.slice(2)
const A = await sharp(a).raw().ensureAlpha().toBuffer({ resolveWithObject: true })
const B = await sharp(b).raw().ensureAlpha().toBuffer({ resolveWithObject: true })
const { width: w, height: h } = A.info
const o = Buffer.alloc(w * h * 4)
let n = 0, x0 = w, y0 = h, x1 = 0, y1 = 0
for (let i = 0; i < w * h; i++) {
  const p = i * 4
  const d = Math.abs(A.data[p] - B.data[p]) + Math.abs(A.data[p + 1] - B.data[p + 1]) + Math.abs(A.data[p + 2] - B.data[p + 2])
  if (d > 30) { n++; o[p] = 255; o[p + 3] = 255; const x = i % w, y = (i / w) | 0; x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y) }
  else { o[p] = o[p + 1] = o[p + 2] = A.data[p] / 3; o[p + 3] = 255 }
}
console.log('differing', n, 'box', x0, y0, x1, y1)
if (out) await sharp(o, { raw: { width: w, height: h, channels: 4 } }).png().toFile(out)
