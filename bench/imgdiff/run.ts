/**
 * Image-comparison benchmark: @qa/verifier vs raw pixelmatch vs odiff's persistent server, on full-HD screenshot pairs.
 * Run from the repo root: `node --import tsx bench/imgdiff/run.ts [--runs 25]`
 *
 * Pairs (generated with sharp, written as PNG files to a temp folder):
 *   local        a button changes colour (a local change)
 *   layout       the lower half of the page moves down by 48 px (a layout shift)
 *   same-pixels  identical pixels, different PNG bytes (other compression settings)
 *   same-bytes   byte-identical files
 * Every number is the median of N timed runs (default 25), the methods interleaved run by run.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { compareScreenshots, createScreenshotCache, decodeScreenshot } from '@qa/verifier'

const verifierRequire = createRequire(new URL('../../packages/verifier/package.json', import.meta.url))
const load = async <T>(name: string): Promise<T> =>
  (await import(pathToFileURL(verifierRequire.resolve(name)).href)) as T
const sharp = (await load<{ default: typeof import('sharp').default }>('sharp')).default
const pixelmatch = (await load<{ default: typeof import('pixelmatch').default }>('pixelmatch')).default
const { ODiffServer } = await load<typeof import('odiff-bin')>('odiff-bin')

const runsArg = process.argv.indexOf('--runs')
const RUNS = Math.max(20, runsArg > 0 ? Number(process.argv[runsArg + 1]) : 25)
const W = 1920
const H = 1080

function pageSvg(): string {
  const cards = Array.from({ length: 24 }, (_, i) => {
    const x = 40 + (i % 4) * 470
    const y = 110 + Math.floor(i / 4) * 160
    return `<g><rect x="${x}" y="${y}" width="440" height="140" rx="10" fill="#fff" stroke="#d0d7de"/>
      <text x="${x + 20}" y="${y + 44}" font-size="26" font-family="Noto Sans CJK KR, sans-serif" fill="#1f2328">상품 ${i + 1} · Item ${i + 1}</text>
      <text x="${x + 20}" y="${y + 84}" font-size="18" font-family="sans-serif" fill="#57606a">₩${(i + 1) * 1200} — free shipping, 30-day returns</text>
      <rect x="${x + 300}" y="${y + 96}" width="120" height="32" rx="6" fill="#1f883d"/>
      <text x="${x + 322}" y="${y + 118}" font-size="16" font-family="Noto Sans CJK KR, sans-serif" fill="#fff">장바구니</text></g>`
  }).join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
    <rect width="100%" height="100%" fill="#f6f8fa"/><rect width="${W}" height="72" fill="#24292f"/>
    <text x="40" y="46" font-size="28" font-family="Noto Sans CJK KR, sans-serif" fill="#fff">쇼핑몰 Shop — 로그인</text>${cards}</svg>`
}

function paint(d: Uint8Array, x0: number, y0: number, w: number, h: number, rgb: [number, number, number]): void {
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) d.set(rgb, (y * W + x) * 4)
}

const encode = (d: Uint8Array, compressionLevel = 6, adaptiveFiltering = false) =>
  sharp(d, { raw: { width: W, height: H, channels: 4 } })
    .png({ compressionLevel, adaptiveFiltering })
    .toBuffer()

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'qa-bench-imgdiff-'))
  const base = await sharp(Buffer.from(pageSvg())).ensureAlpha().raw().toBuffer()
  const local = new Uint8Array(base)
  paint(local, 40 + 300, 110 + 2 * 160 + 96, 120, 32, [207, 34, 46]) // one "장바구니" button turns red
  const layout = new Uint8Array(base)
  const shift = 48
  layout.copyWithin((540 + shift) * W * 4, 540 * W * 4, (H - shift) * W * 4)
  paint(layout, 0, 540, W, shift, [246, 248, 250])

  const expectedPath = join(dir, 'expected.png')
  writeFileSync(expectedPath, await encode(base))
  const pairs = [
    { name: 'local change', actual: local, path: join(dir, 'local.png'), bytes: await encode(local) },
    { name: 'layout shift', actual: layout, path: join(dir, 'layout.png'), bytes: await encode(layout) },
    {
      name: 'same pixels, other bytes',
      actual: base,
      path: join(dir, 'same-pixels.png'),
      bytes: await encode(base, 9, true),
    },
  ]
  for (const p of pairs) writeFileSync(p.path, p.bytes)
  const sameBytesPath = join(dir, 'same-bytes.png')
  copyFileSync(expectedPath, sameBytesPath)

  const server = new ODiffServer()
  const cache = createScreenshotCache()
  const t0 = performance.now()
  await cache.get(expectedPath)
  const expectedDecodeMs = performance.now() - t0
  const expected = await decodeScreenshot(expectedPath)
  const time = async (f: () => unknown) => {
    const s = performance.now()
    await f()
    return performance.now() - s
  }

  console.log(`imgdiff benchmark: ${W}×${H}, median of ${RUNS} runs (methods interleaved), node ${process.version}`)
  console.log(`one-time decode of the expected screenshot (cached for the replay): ${expectedDecodeMs.toFixed(1)} ms\n`)
  const rows: string[][] = []
  const goals: [string, boolean, string][] = []

  for (const p of pairs) {
    const frame = { width: W, height: H, channels: 4 as const, data: p.actual }
    const methods: Record<string, () => unknown> = {
      oursFiles: () => compareScreenshots(expectedPath, p.path, { cache }),
      oursFilesDiff: () => compareScreenshots(expectedPath, p.path, { cache, diffImage: 'always' }),
      oursRaw: () => compareScreenshots(expected, frame),
      pixelmatch: () => pixelmatch(expected.data, p.actual, undefined, W, H, { threshold: 0.1 }),
      odiff: () =>
        server.compare(expectedPath, p.path, join(dir, 'odiff-diff.png'), { threshold: 0.1, antialiasing: true }),
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(methods).map((k) => [k, []]))
    for (let i = 0; i < RUNS + 3; i++) {
      for (const [k, f] of Object.entries(methods)) {
        const ms = await time(f)
        if (i >= 3) samples[k]?.push(ms)
      }
    }
    const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)])) as Record<string, number>
    const ours = await compareScreenshots(expected, frame)
    const pm = pixelmatch(expected.data, p.actual, undefined, W, H, { threshold: 0.1 })
    const od = await server.compare(expectedPath, p.path, join(dir, 'odiff-diff.png'), {
      threshold: 0.1,
      antialiasing: true,
    })
    const odCount = od.match ? 0 : 'diffCount' in od ? od.diffCount : NaN
    const diffMs = Math.max(0, (m.oursFilesDiff as number) - (m.oursFiles as number))
    const failed = ours.similarity < 0.95 // 'on-failure' draws the diff only then
    rows.push([
      p.name,
      `${m.oursFiles?.toFixed(2)}`,
      `${m.oursRaw?.toFixed(2)}`,
      `${m.pixelmatch?.toFixed(2)}`,
      `${m.odiff?.toFixed(2)}`,
      `${((m.oursFiles as number) / (m.odiff as number)).toFixed(2)}×`,
      `${((m.oursRaw as number) / (m.pixelmatch as number)).toFixed(2)}×`,
      `+${diffMs.toFixed(1)}${failed ? '' : ' (not drawn: passes)'}`,
      `${ours.diffPixels} / ${pm} / ${odCount}`,
    ])
    goals.push([
      `${p.name}: files end-to-end faster than odiff server`,
      (m.oursFiles as number) < (m.odiff as number),
      `${m.oursFiles?.toFixed(2)} vs ${m.odiff?.toFixed(2)} ms`,
    ])
    goals.push([`${p.name}: counts equal pixelmatch`, ours.diffPixels === pm, `${ours.diffPixels} = ${pm}`])
    if (p.name === 'local change')
      goals.push([
        'local change: raw frames ≤ 0.5× pixelmatch',
        (m.oursRaw as number) <= 0.5 * (m.pixelmatch as number),
        `${m.oursRaw?.toFixed(2)} vs ${m.pixelmatch?.toFixed(2)} ms`,
      ])
    if (p.name === 'same pixels, other bytes')
      goals.push(['pixel-identical raw frames ≤ 2.5 ms', (m.oursRaw as number) <= 2.5, `${m.oursRaw?.toFixed(2)} ms`])
    goals.push([`${p.name}: the diff image adds ≤ 40 ms`, diffMs <= 40, `+${diffMs.toFixed(1)} ms`])
  }

  const sameBytes: number[] = []
  for (let i = 0; i < RUNS + 3; i++) {
    const ms = await time(() => compareScreenshots(expectedPath, sameBytesPath, { cache }))
    if (i >= 3) sameBytes.push(ms)
  }
  const odSame: number[] = []
  for (let i = 0; i < RUNS; i++)
    odSame.push(await time(() => server.compare(expectedPath, sameBytesPath, join(dir, 'odiff-diff.png'))))
  const sb = median(sameBytes)
  rows.push([
    'same bytes',
    sb.toFixed(3),
    '—',
    '—',
    median(odSame).toFixed(2),
    `${(sb / median(odSame)).toFixed(3)}×`,
    '—',
    'none (passes)',
    '0 / 0 / 0',
  ])
  goals.push(['byte-identical files: verdict ≤ 0.2 ms', sb <= 0.2, `${sb.toFixed(3)} ms`])

  const header = [
    'pair',
    'ours, files (ms)',
    'ours, raw (ms)',
    'pixelmatch (ms)',
    'odiff server (ms)',
    'files / odiff',
    'raw / pixelmatch',
    'diff image (ms)',
    'diff px ours / pm / odiff',
  ]
  console.log(`| ${header.join(' | ')} |`)
  console.log(`|${header.map(() => '---').join('|')}|`)
  for (const r of rows) console.log(`| ${r.join(' | ')} |`)
  console.log('\ngoals:')
  for (const [name, ok, detail] of goals) console.log(`  ${ok ? 'MET ' : 'MISS'} ${name} (${detail})`)
  console.warn = () => undefined // odiff logs its own shutdown as an unexpected exit
  server.stop()
  rmSync(dir, { recursive: true, force: true })
}

await main()
