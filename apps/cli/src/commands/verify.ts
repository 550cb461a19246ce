import { writeFileAtomic } from '@qa/model/node'
import { compareScreenshots, type Rect, VerifierError } from '@qa/verifier'
import { Command, Option } from 'clipanion'
import { loadConfig } from '../config'
import { QaCommand } from '../base-command'
import { EXIT_PASS, EXIT_TEST_FAILED } from '../exit-codes'
import { guardOutputs } from '../output-guard'

function parseRatio(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new VerifierError('VERIFIER_BAD_OPTION', `${flag}: expected a number from 0 to 1, got "${value}".`, {
      hint: `For example ${flag} ${fallback}.`,
    })
  }
  return n
}

export function parseRect(value: string, flag: string): Rect {
  const parts = value.split(',').map((p) => p.trim())
  const nums = parts.map(Number)
  if (parts.length !== 4 || parts.some((p) => p === '') || nums.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new VerifierError(
      'VERIFIER_BAD_OPTION',
      `${flag}: expected x,y,width,height as non-negative integers, got "${value}".`,
      {
        hint: `For example ${flag} 0,0,1280,40 ignores a 40-pixel bar at the top.`,
      },
    )
  }
  const [x, y, width, height] = nums as [number, number, number, number]
  return { x, y, width, height }
}

const pct = (x: number) => `${(x * 100).toFixed(2)}%`

export class VerifyCommand extends QaCommand {
  static override paths = [['verify']]
  static override usage = Command.Usage({
    description: 'Compare an actual screenshot with the expected one (pixelmatch; anti-aliasing ignored).',
    details: `
      Similarity = 1 − differing pixels / compared pixels. The check passes when the similarity is at least the
      threshold (default 0.95). Masked rectangles (clocks, counters, carets) are neither compared nor counted.
      Images of different sizes fail with the reason, unless --resize is given. --diff never names one of the
      input images, and an existing file is replaced only with --force (checked before comparing).
      Exit code: 0 pass, 1 fail, 2 bad input (missing file, not an image, truncated image, bad option).
    `,
    examples: [
      ['Compare two screenshots', '$0 verify expected.png actual.png'],
      ['Ignore the clock bar, write the diff', '$0 verify --mask 0,0,1920,40 --diff diff.png expected.png actual.png'],
      ['Machine-readable', '$0 verify --json --threshold 0.99 expected.png actual.png'],
    ],
  })

  threshold = Option.String('--threshold', {
    description: 'Minimum similarity 0–1 to pass (default: verify.passSimilarity of the config, else 0.95).',
  })
  configPath = Option.String('--config', { description: 'Config file (default ./qa.config.json when present).' })
  colorThreshold = Option.String('--color-threshold', { description: 'pixelmatch colour threshold 0–1 (default 0.1).' })
  masks = Option.Array('--mask', [], { description: 'Ignore the rectangle x,y,width,height (repeatable).' })
  maskImage = Option.String('--mask-image', { description: 'Ignore the bright pixels of this image (same size).' })
  region = Option.String('--region', { description: 'Compare only x,y,width,height.' })
  resize = Option.Boolean('--resize', false, { description: 'Resize the actual image when the sizes differ.' })
  diff = Option.String('--diff', { description: 'Write the diff image (PNG) to this file.' })
  force = Option.Boolean('--force', false, { description: 'Replace the --diff file when it exists.' })
  json = Option.Boolean('--json', false, { description: 'Print one JSON object, nothing else.' })
  expected = Option.String({ name: 'expected' })
  actual = Option.String({ name: 'actual' })

  async run(): Promise<number> {
    const flagThreshold = this.threshold === undefined ? undefined : parseRatio(this.threshold, '--threshold', 0.95)
    // the same pass threshold as `qa replay`: flag > QA_THRESHOLD > qa.config.json verify.passSimilarity > 0.95 (a
    // flag is used as given: the replay's fallback floor, which it may go below, plays no part in one comparison)
    const threshold = flagThreshold ?? (await loadConfig({ configPath: this.configPath })).config.verify.passSimilarity
    const colorThreshold = parseRatio(this.colorThreshold, '--color-threshold', 0.1)
    const ignore = this.masks.map((m) => parseRect(m, '--mask'))
    const region = this.region === undefined ? undefined : parseRect(this.region, '--region')
    await guardOutputs({
      outputs: [this.diff && { path: this.diff, flag: '--diff' }],
      inputs: [
        { path: this.expected, what: 'the expected image' },
        { path: this.actual, what: 'the actual image' },
        this.maskImage && { path: this.maskImage, what: 'the mask image' },
      ],
      force: this.force,
      nothing: 'nothing was compared',
    })
    const result = await compareScreenshots(this.expected, this.actual, {
      threshold: colorThreshold,
      ignore,
      ...(this.maskImage ? { maskImage: this.maskImage } : {}),
      ...(region ? { region } : {}),
      sizeMismatch: this.resize ? 'resize' : 'fail',
      diffImage: this.diff ? 'always' : 'never',
    })
    const passed = !result.sizeMismatch && result.similarity >= threshold
    if (this.diff && result.diffImage) await writeFileAtomic(this.diff, result.diffImage, { overwrite: this.force })
    const reason =
      result.reason ??
      `similarity ${pct(result.similarity)} ${passed ? '≥' : '<'} threshold ${pct(threshold)} (${result.diffPixels} of ${result.totalPixels} pixels differ)`
    if (this.json) {
      this.out(
        JSON.stringify(
          {
            verdict: passed ? 'pass' : 'fail',
            passed,
            similarity: result.similarity,
            threshold,
            diff_pixels: result.diffPixels,
            total_pixels: result.totalPixels,
            width: result.width,
            height: result.height,
            reason,
            ...(result.sizeMismatch ? { size_mismatch: result.sizeMismatch } : {}),
            ...(this.diff && result.diffImage ? { diff: this.diff } : {}),
          },
          null,
          2,
        ),
      )
    } else {
      this.out(`${passed ? 'PASS' : 'FAIL'} ${reason}`)
      if (this.diff && result.diffImage) this.out(`diff: ${this.diff}`)
    }
    return passed ? EXIT_PASS : EXIT_TEST_FAILED
  }
}
