import { formatIssue, isQaError, ModelError, type QaError, terminalSafe } from '@qa/model'
import {
  ACTION_ASSET_FIELDS,
  checkInputFile,
  type LoadedTestCase,
  loadTestCase,
  MAX_IMAGE_FILE_BYTES,
} from '@qa/model/node'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { EXIT_PASS, EXIT_USAGE } from '../exit-codes'

/** A line printed on the terminal: names and values from the files show their control characters escaped. */
const safe = (line: string) => terminalSafe(line, { keepLineBreaks: false })

export class ValidateCommand extends QaCommand {
  static override paths = [['validate']]
  static override usage = Command.Usage({
    description: 'Check test-case files against the format (any version) and list every problem.',
    details: `
      Prints \`OK\` per valid file, or every problem with its JSON path, expected and found value. Every screenshot
      a case names must be there, beside it: a regular file of at most 100 MiB (as replay reads it).
      Files are only read, never changed; older versions are reported with the migration they would get.
      Exit code: 0 when all files are valid, 2 when any is invalid or unreadable.
    `,
    examples: [
      ['Validate one case', '$0 validate cases/login.json'],
      ['Validate many, machine-readable', '$0 validate --json cases/*.json'],
    ],
  })

  json = Option.Boolean('--json', false, { description: 'Print one JSON object with the results, nothing else.' })
  files = Option.Rest({ required: 1 })

  async run(): Promise<number> {
    const results: {
      file: string
      valid: boolean
      version?: string
      migrated?: boolean
      errors?: string[]
      error?: unknown
    }[] = []
    for (const file of this.files) {
      try {
        const loaded = await loadTestCase(file)
        const missing = await missingAssets(loaded, file)
        if (missing.length > 0) {
          results.push({ file, valid: false, errors: missing.map((m) => m.line), error: missing[0]?.error.toJSON() })
          if (!this.json) {
            this.err(`INVALID ${file}`)
            for (const m of missing) this.err(`  ${m.line}`)
            this.err('  hint: Keep the screenshots beside the case as it names them; the file was not changed.')
          }
          continue
        }
        results.push({ file, valid: true, version: loaded.sourceVersion, migrated: loaded.migrated })
        if (!this.json) {
          const note = loaded.migrated
            ? ` (version ${loaded.sourceVersion}; loads as ${loaded.testCase.version}: ${loaded.migrationNotes.join('; ')})`
            : ''
          this.out(safe(`OK ${file}: ${loaded.testCase.actions.length} actions, ${loaded.testCase.platform}${note}`))
        }
      } catch (error) {
        if (!isQaError(error)) throw error
        const errors =
          error instanceof ModelError && error.issues.length > 0
            ? error.issues.map((i) => `${file}: ${formatIssue(i)}`)
            : [error.message]
        results.push({ file, valid: false, errors, error: error.toJSON() })
        if (!this.json) {
          this.err(safe(`INVALID ${file}`))
          for (const line of errors) this.err(safe(`  ${line}`))
          if (error.hint) this.err(safe(`  hint: ${error.hint}`))
        }
      }
    }
    const allValid = results.every((r) => r.valid)
    if (this.json) this.out(JSON.stringify({ valid: allValid, files: results }, null, 2))
    return allValid ? EXIT_PASS : EXIT_USAGE
  }
}

/**
 * The screenshots a case names that replay could not read (missing, not a regular file, too large), one line each
 * naming the field: `cases/a.json: actions[0].screenshot_path "a/step-000-after.png": …: no such screenshot file.`
 */
async function missingAssets(loaded: LoadedTestCase, file: string): Promise<{ line: string; error: QaError }[]> {
  const out: { line: string; error: QaError }[] = []
  for (const [i, action] of loaded.testCase.actions.entries())
    for (const field of ACTION_ASSET_FIELDS) {
      const path = action[field]
      if (!path) continue
      try {
        await checkInputFile(loaded.resolveAsset(path), { what: 'screenshot file', maxBytes: MAX_IMAGE_FILE_BYTES })
      } catch (error) {
        if (!isQaError(error)) throw error
        const name = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
        out.push({ line: `${file}: actions[${i}].${name} ${JSON.stringify(path)}: ${error.message}`, error })
      }
    }
  return out
}
