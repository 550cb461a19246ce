import { resolve } from 'node:path'
import { isLegacyTestCase } from '@qa/model'
import { loadTestCase, saveTestCase } from '@qa/model/node'
import { desktopVision, enrichDesktopCase } from '@qa/recorder-desktop'
import { visionConfigFromEnv } from '@qa/vision'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { EXIT_PASS } from '../exit-codes'
import { UsageError } from '../usage-error'

export class EnrichCommand extends QaCommand {
  static override paths = [['enrich']]
  static override usage = Command.Usage({
    category: 'Record & replay',
    description: 'Add semantic information to a legacy (coordinate-only) desktop case from its stored screenshots.',
    details: `
      Seed 001 TestCaseEnricher: every click without semantic_info is analysed from its screenshot by the vision
      provider (QA_VISION: bedrock, openai, ocr — the default — or none). Existing fields are never changed; a
      click whose screenshot is missing is marked skipped. Writes a new file (default <case>.enriched.json),
      never the input. Prints the EnrichmentResult (total, enriched, skipped, failed).
    `,
    examples: [
      ['Enrich with OCR', '$0 enrich cases/legacy.json'],
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

  async run(): Promise<number> {
    const loaded = await loadTestCase(this.casePath)
    const tc = loaded.testCase
    if (tc.platform !== 'desktop')
      throw new UsageError(
        `${this.casePath} is a ${tc.platform} case; \`qa enrich\` here handles desktop cases.`,
        'Re-record web cases with `qa record web`.',
      )
    const out = resolve(this.outPath ?? loaded.file.replace(/\.json$/i, '') + '.enriched.json')
    if (out === loaded.file)
      throw new UsageError(
        '--out names the input file; enrichment never overwrites its input.',
        'Pick another file name.',
      )
    const vision = desktopVision(visionConfigFromEnv(process.env))
    try {
      if (!vision.elementAnalyzer)
        throw new UsageError('QA_VISION=none cannot enrich anything.', 'Use QA_VISION=ocr (offline) or bedrock/openai.')
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
      await saveTestCase(out, testCase)
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
      return EXIT_PASS
    } finally {
      await vision.close()
    }
  }
}
