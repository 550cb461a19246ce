import { resolve } from 'node:path'
import { isLegacyTestCase, type QaConfig } from '@qa/model'
import { loadTestCase, saveTestCase } from '@qa/model/node'
import { enrichWebCase, openBrowser } from '@qa/recorder-cdp'
import { desktopVision, enrichDesktopCase } from '@qa/recorder-desktop'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { loadConfig, visionConfigOf } from '../config'
import { EXIT_PASS, EXIT_TEST_FAILED } from '../exit-codes'
import { caseInputs, guardOutputs } from '../output-guard'
import { parseUrlFlag, UsageError } from '../usage-error'

export class EnrichCommand extends QaCommand {
  static override paths = [['enrich']]
  static override usage = Command.Usage({
    category: 'Record & replay',
    description:
      'Add semantic information to a legacy (coordinate-only) case: desktop from its screenshots, web from the live app.',
    details: `
      TestCaseEnricher: every click without semantic_info is analysed from its screenshot by the vision
      provider (QA_VISION: bedrock, openai, ocr — the default — or none). Existing fields are never changed; a
      click whose screenshot is missing is marked skipped. Writes a new file (default <case>.enriched.json),
      never the input or one of its screenshots; an existing file is replaced only with --force, checked before
      any work. Prints the EnrichmentResult (total, enriched, skipped, failed).
      Exit code: 0 when the case was written and no action failed, 1 when it was written but some action could
      not be enriched (listed on stderr), 2 on bad input.
      Web cases are replayed at their coordinates in Chromium, starting at --url exactly as given (or their
      start_url, moved onto --base-url when given), and the identity of the element under each click is
      captured over CDP before the click happens. URL rules as for qa replay.
    `,
    examples: [
      ['Enrich with OCR', '$0 enrich cases/legacy.json'],
      [
        'Enrich a coordinate-only web case against a running app',
        '$0 enrich cases/old-web.json --url http://127.0.0.1:3000/',
      ],
      [
        'Screenshots elsewhere, Claude on Bedrock',
        'QA_VISION=bedrock $0 enrich cases/legacy.json --screenshots shots/ --out cases/legacy.v3.json',
      ],
    ],
  })

  casePath = Option.String({ name: 'case' })
  screenshots = Option.String('--screenshots', {
    description: 'Folder holding the screenshots (default: next to the case).',
  })
  outPath = Option.String('--out', { description: 'File to write (default <case>.enriched.json).' })
  json = Option.Boolean('--json', false, { description: 'Print the EnrichmentResult JSON only.' })
  force = Option.Boolean('--force', false, { description: 'Replace the output file when it exists.' })
  url = Option.String('--url', {
    description:
      'Web cases: the start URL, opened exactly as given; later recorded URLs on the recorded origin move to its origin.',
  })
  baseUrl = Option.String('--base-url', {
    description: 'Web cases: move every recorded URL on the recorded origin onto this base URL.',
  })
  configPath = Option.String('--config', { description: 'Config file (default ./qa.config.json when present).' })

  async run(): Promise<number> {
    parseUrlFlag(this.url, '--url')
    parseUrlFlag(this.baseUrl, '--base-url')
    const { config } = await loadConfig({ configPath: this.configPath })
    const loaded = await loadTestCase(this.casePath)
    const tc = loaded.testCase
    const out = resolve(this.outPath ?? loaded.file.replace(/\.json$/i, '') + '.enriched.json')
    await guardOutputs({
      outputs: [{ path: out, flag: '--out' }],
      inputs: [...caseInputs(loaded), this.screenshots && { path: this.screenshots, what: 'the --screenshots folder' }],
      force: this.force,
      nothing: 'nothing was enriched',
    })
    if (tc.platform === 'web') return this.enrichWeb(loaded.testCase, out, config)
    const vision = desktopVision(visionConfigOf(config, process.env))
    try {
      if (!vision.elementAnalyzer)
        throw new UsageError(
          'The vision provider is "none" (vision.provider / QA_VISION): it cannot enrich anything.',
          'Use QA_VISION=ocr (offline) or bedrock/openai.',
        )
      if (!isLegacyTestCase(tc) && !this.json) this.err('Every click already has semantic information; nothing to do.')
      const { testCase, result, notes } = await enrichDesktopCase(tc, {
        analyzer: vision.elementAnalyzer,
        caseDir: loaded.dir,
        screenshotsDir: this.screenshots ? resolve(this.screenshots) : null,
        onProgress: (done, total, _a, status) => {
          if (this.json) return
          const width = 24
          const filled = total ? Math.round((done / total) * width) : width
          process.stderr.write(
            `\r  [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${status ?? ''}   `,
          )
          if (done === total) process.stderr.write('\n')
        },
      })
      await saveTestCase(out, testCase, { overwrite: this.force })
      if (this.json)
        this.out(
          JSON.stringify({
            total_actions: result.totalActions,
            enriched_count: result.enrichedCount,
            skipped_count: result.skippedCount,
            failed_count: result.failedCount,
            version: result.version,
            out,
          }),
        )
      else {
        for (const n of notes) this.err(`  action ${n.index + 1}: ${n.status} — ${n.reason}`)
        this.out(
          `Enriched ${result.enrichedCount}, skipped ${result.skippedCount}, failed ${result.failedCount} of ${result.totalActions} actions → ${out}`,
        )
      }
      return this.exitFor(result.failedCount)
    } finally {
      await vision.close()
    }
  }

  /** Exit 1 when some action could not be enriched: the file was written, but the work is not done. */
  private exitFor(failed: number): number {
    if (failed === 0) return EXIT_PASS
    if (!this.json)
      this.err(
        `${failed} action${failed === 1 ? '' : 's'} could not be enriched (listed above); they replay by coordinates.`,
      )
    return EXIT_TEST_FAILED
  }

  private async enrichWeb(tc: import('@qa/model').TestCase, out: string, config: QaConfig): Promise<number> {
    const session = await openBrowser({
      executablePath: config.browser.chromiumPath,
      ...(tc.viewport ? { viewport: { width: tc.viewport.width, height: tc.viewport.height } } : {}),
    })
    try {
      const { testCase, result } = await enrichWebCase(tc, {
        page: session.page,
        ...(this.url ? { url: this.url } : {}),
        ...(this.baseUrl ? { baseUrl: this.baseUrl } : {}),
        env: process.env,
        onAction: ({ index, total, status }) => {
          if (!this.json) this.err(`  [${index + 1}/${total}] ${status}`)
        },
      })
      await saveTestCase(out, testCase, { overwrite: this.force })
      if (this.json)
        this.out(
          JSON.stringify({
            total_actions: result.totalActions,
            enriched_count: result.enrichedCount,
            skipped_count: result.skippedCount,
            failed_count: result.failedCount,
            version: result.version,
            out,
          }),
        )
      else
        this.out(
          `Enriched ${result.enrichedCount} of ${result.totalActions} actions (${result.skippedCount} skipped, ${result.failedCount} failed) into ${out}`,
        )
      return this.exitFor(result.failedCount)
    } finally {
      await session.close()
    }
  }
}
