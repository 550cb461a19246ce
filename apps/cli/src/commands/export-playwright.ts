import { basename, dirname, join, relative, resolve } from 'node:path'
import { writeFileAtomic } from '@qa/model/node'
import { exportPlaywrightTest } from '@qa/playwright/codegen'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { EXIT_PASS } from '../exit-codes'
import { loadWebCaseToExport } from '../export-case'

/** `login.json` → `login.spec.ts` beside it. */
export function defaultSpecPath(casePath: string): string {
  return join(dirname(casePath), `${basename(casePath).replace(/\.json$/i, '')}.spec.ts`)
}

/** The case as the spec imports it: relative to the spec's folder, always with a leading `./` or `../`. */
export function caseImportPath(specFile: string, caseFile: string): string {
  const rel = relative(dirname(resolve(specFile)), resolve(caseFile))
    .split('\\')
    .join('/')
  return rel.startsWith('.') ? rel : `./${rel}`
}

export class ExportPlaywrightCommand extends QaCommand {
  static override paths = [['export', 'playwright']]
  static override usage = Command.Usage({
    category: 'Import & export',
    description: 'Write a web test case as a readable Playwright Test spec that heals (uses @qa/playwright).',
    details: `
      One line per step, codegen style, naming the element's role, name and test id; each element is found with
      \`heal(page).fromCase(case, i)\` (qa's healing cascade), so the spec survives a redesign, and the recorded
      assertions become \`expect\` lines. The spec reads the case file (path relative to the spec), so keep them
      together. Password steps read their secret from the environment variable named in the case. The case is
      only read; an existing --out needs --force. Exit code: 0 when the spec was written, 2 on bad input.
    `,
    examples: [['Export a case', '$0 export playwright cases/login.json --out tests/login.spec.ts']],
  })

  casePath = Option.String({ name: 'case.json' })
  outFile = Option.String('--out', { description: 'Where to write the spec (default: <case>.spec.ts beside it).' })
  force = Option.Boolean('--force', false, { description: 'Overwrite --out when it exists.' })
  json = Option.Boolean('--json', false, { description: 'Print one JSON object on stdout, nothing else.' })

  async run(): Promise<number> {
    const outFile = this.outFile ?? defaultSpecPath(this.casePath)
    const loaded = await loadWebCaseToExport({ casePath: this.casePath, outFile, force: this.force, to: 'Playwright' })
    const { source, warnings } = exportPlaywrightTest(loaded.testCase, {
      casePath: caseImportPath(outFile, loaded.file),
    })
    await writeFileAtomic(outFile, source, { overwrite: this.force })
    for (const w of warnings) this.err(`warning: ${w}`)
    const steps = loaded.testCase.actions.length
    if (this.json) this.out(JSON.stringify({ file: outFile, steps, warnings }))
    else {
      this.out(`Exported ${steps} steps from ${this.casePath} into ${outFile}`)
      if (warnings.length > 0) this.out(`${warnings.length} warning(s) on stderr.`)
    }
    return EXIT_PASS
  }
}
