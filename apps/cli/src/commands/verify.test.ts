import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { compareScreenshots } from '@qa/verifier'
import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import { encodePng, solidRgba } from '../__tests__/png'
import { ensureBuilt, runBuilt } from '../__tests__/run-cli'
import { main } from '../main'

const tmp = mkdtempSync(join(tmpdir(), 'qa-cli-verify-'))

const png = encodePng
const frame = (width: number, height: number, rgb: [number, number, number]) => solidRgba(width, height, rgb)

function paint(
  d: Uint8Array,
  width: number,
  x0: number,
  y0: number,
  w: number,
  h: number,
  rgb: [number, number, number],
) {
  const height = d.length / 4 / width
  for (let y = y0; y < Math.min(height, y0 + h); y++)
    for (let x = x0; x < Math.min(width, x0 + w); x++) d.set(rgb, (y * width + x) * 4)
}

beforeAll(ensureBuilt, 180_000)

/** The CLI's `main` in this process, its output collected: the exit code the bin sets, and what it printed. */
async function runMain(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const collect = () => {
    const chunks: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk))
        done()
      },
    })
    return { stream, text: () => chunks.join('') }
  }
  const [out, err] = [collect(), collect()]
  const code = await main(args, { stdout: out.stream, stderr: err.stream })
  return { code, stdout: out.text(), stderr: err.text() }
}

let n = 0
function writePng(width: number, height: number, d: Uint8Array): string {
  const p = join(tmp, `img-${n++}.png`)
  writeFileSync(p, png(width, height, d))
  return p
}

describe('qa verify', () => {
  // exit code 0 ⇔ the check passed, 1 ⇔ it failed: the CLI's `main`, what the bin runs and exits with, in this
  // process (a process per run cost about a second each); the built CLI as a process below
  test('exit code 0 exactly when similarity ≥ threshold, else 1 (main, 100 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 2, max: 12 }),
        fc.array(
          fc.record({
            x: fc.nat(11),
            y: fc.nat(11),
            w: fc.integer({ min: 1, max: 6 }),
            h: fc.integer({ min: 1, max: 6 }),
          }),
          { maxLength: 3 },
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (width, height, edits, threshold) => {
          const a = frame(width, height, [240, 240, 240])
          const b = new Uint8Array(a)
          for (const e of edits) paint(b, width, e.x, e.y, e.w, e.h, [20, 30, 40])
          const pa = writePng(width, height, a)
          const pb = writePng(width, height, b)
          const { similarity } = await compareScreenshots(pa, pb)
          const r = await runMain(['verify', '--json', '--threshold', String(threshold), pa, pb])
          const out = JSON.parse(r.stdout) as { passed: boolean; similarity: number }
          expect(out.similarity).toBe(similarity)
          expect(out.passed).toBe(similarity >= threshold)
          expect(r.code).toBe(similarity >= threshold ? 0 : 1)
        },
      ),
      { numRuns: 100 },
    )
  }, 900_000)

  test('the built CLI exits with what main returns: 0 on a pass, 1 on a failure', async () => {
    const a = frame(10, 10, [240, 240, 240])
    const b = new Uint8Array(a)
    paint(b, 10, 0, 0, 5, 10, [20, 30, 40]) // half of the pixels differ: 50 %
    const [pa, pb] = [writePng(10, 10, a), writePng(10, 10, b)]
    for (const threshold of [0.4, 0.6]) {
      const built = await runBuilt(['verify', '--json', '--threshold', String(threshold), pa, pb])
      const inProcess = await runMain(['verify', '--json', '--threshold', String(threshold), pa, pb])
      expect(built.code).toBe(threshold <= 0.5 ? 0 : 1)
      expect(built.code).toBe(inProcess.code)
      expect(JSON.parse(built.stdout)).toEqual(JSON.parse(inProcess.stdout))
    }
  })

  test('the pass threshold comes from the config as in qa replay; --threshold wins', async () => {
    const a = frame(10, 10, [200, 200, 200])
    const b = frame(10, 10, [200, 200, 200])
    paint(b, 10, 0, 0, 1, 1, [0, 0, 0]) // 1 pixel of 100 differs: 99 %
    const expected = writePng(10, 10, a)
    const actual = writePng(10, 10, b)
    const config = join(tmp, 'strict.qa.config.json')
    writeFileSync(config, JSON.stringify({ verify: { passSimilarity: 0.995 } }))
    expect((await runBuilt(['verify', expected, actual])).code).toBe(0)
    const strict = await runBuilt(['verify', '--config', config, expected, actual])
    expect(strict.code).toBe(1)
    expect(strict.stdout).toContain('threshold 99.50%')
    expect((await runBuilt(['verify', '--config', config, '--threshold', '0.9', expected, actual])).code).toBe(0)
  })

  test('bad input exits 2 with a clear message and hint, never a stack trace (built CLI)', async () => {
    const good = writePng(4, 4, frame(4, 4, [1, 2, 3]))
    const notImage = join(tmp, 'notes.png')
    writeFileSync(notImage, 'just text')
    const empty = join(tmp, 'empty.png')
    writeFileSync(empty, '')
    const truncated = join(tmp, 'truncated.png')
    writeFileSync(truncated, png(64, 64, frame(64, 64, [9, 9, 9])).subarray(0, 40))
    const cases: [string[], RegExp][] = [
      [[join(tmp, 'missing.png'), good], /missing\.png: no such screenshot file/],
      [[notImage, good], /notes\.png: not an image/],
      [[good, empty], /empty\.png: the screenshot is empty/],
      [[good, truncated], /truncated\.png: the PNG image could not be decoded/],
      [['--threshold', '2', good, good], /--threshold: expected a number from 0 to 1/],
      [['--mask', '1,2,3', good, good], /--mask: expected x,y,width,height/],
    ]
    for (const [args, message] of cases) {
      const r = await runBuilt(['verify', ...args])
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(message)
      expect(r.stderr).toMatch(/\nhint: /)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    }
  }, 60_000)

  test('masks exclude their pixels; --diff writes a PNG; size mismatch fails with the reason (built CLI)', async () => {
    const a = frame(20, 10, [250, 250, 250])
    const b = new Uint8Array(a)
    paint(b, 20, 0, 0, 20, 3, [0, 0, 0]) // a changed "clock bar"
    const pa = writePng(20, 10, a)
    const pb = writePng(20, 10, b)
    expect((await runBuilt(['verify', pa, pb])).code).toBe(1)
    const masked = await runBuilt(['verify', '--json', '--mask', '0,0,20,3', pa, pb])
    expect(masked.code).toBe(0)
    expect(JSON.parse(masked.stdout)).toMatchObject({ passed: true, diff_pixels: 0, total_pixels: 140, similarity: 1 })
    const diff = join(tmp, 'out', 'diff.png')
    const withDiff = await runBuilt(['verify', '--diff', diff, pa, pb])
    expect(withDiff.stdout).toMatch(/^FAIL similarity 70\.00% < threshold 95\.00% \(60 of 200 pixels differ\)/)
    expect(readFileSync(diff).subarray(1, 4).toString()).toBe('PNG')
    const small = writePng(10, 5, frame(10, 5, [250, 250, 250]))
    const mismatch = await runBuilt(['verify', pa, small])
    expect(mismatch.code).toBe(1)
    expect(mismatch.stdout).toContain('Screenshot sizes differ: expected 20×10, actual 10×5.')
    expect((await runBuilt(['verify', '--resize', pa, small])).code).toBe(0)
  }, 60_000)
})
