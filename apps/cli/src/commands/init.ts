import { existsSync, realpathSync } from 'node:fs'
import { mkdir, readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join, relative, resolve, sep } from 'node:path'
import { writeFileAtomic } from '@qa/model/node'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { EXIT_PASS } from '../exit-codes'
import { UsageError } from '../usage-error'

const REPORT_DIR = 'qa-reports'
const GITIGNORE_LINES = [`${REPORT_DIR}/`, 'qa-demo/', 'test-results/']

/**
 * Where the config's `$schema` points: the schema file @qa/model ships, as this project's node_modules holds it
 * (`./node_modules/@qa/model/qa.config.schema.json` when npm hoisted it there, else the real path below it).
 */
export function schemaReference(projectDir: string): string {
  const hoisted = join(projectDir, 'node_modules', '@qa', 'model', 'qa.config.schema.json')
  if (existsSync(hoisted)) return './node_modules/@qa/model/qa.config.schema.json'
  const real = realpathSync(createRequire(import.meta.url).resolve('@qa/model/qa.config.schema.json'))
  const rel = relative(realpathSync(projectDir), real).split(sep).join('/')
  return rel.startsWith('..') || rel.startsWith('/') ? real : `./${rel}`
}

export function configText(schema: string): string {
  const config = {
    $schema: schema,
    verify: { passSimilarity: 0.95 },
    replay: { reportDir: REPORT_DIR, reportFormats: ['json', 'html', 'junit'] },
    vision: { provider: 'none' },
  }
  return `${JSON.stringify(config, null, 2)}\n`
}

const CASES_README = `# Test cases

Each recorded flow is one JSON file here, with its screenshots in a folder beside it.

    npx qa record web http://localhost:3000/ --out cases/login.json   # record by hand; Stop or Ctrl-C ends it
    npx qa replay cases/login.json --verify                           # replay with self-healing, compare screens
    npx qa replay cases/ --verify                                     # every case here (as CI runs them)

Reports go to ${REPORT_DIR}/ (JSON, HTML, JUnit), as qa.config.json says.
`

export const WORKFLOW = `# Replays every recorded case in cases/ on each push and pull request, and keeps the reports.
# Written by \`qa init\`; adjust the step that starts your app.
name: qa
on: [push, pull_request]
jobs:
  qa:
    runs-on: ubuntu-latest
    container: node:22-bookworm
    steps:
      - uses: actions/checkout@v4
      - name: Chromium, Xvfb and a Hangul font (Debian packages)
        run: apt-get update && apt-get install -y --no-install-recommends chromium xvfb xauth fonts-noto-cjk
      - run: npm ci
      - name: Start the app under test
        run: |
          npm start &
          npx --yes wait-on@8 --timeout 60000 http://localhost:3000/
      - name: Replay and verify every case
        run: xvfb-run -a npx qa replay cases/ --verify --base-url http://localhost:3000/
        env:
          QA_CHROMIUM: /usr/bin/chromium
      - name: Keep the reports (HTML, JSON, JUnit)
        if: always()
        uses: actions/upload-artifact@v4
        with:
          name: qa-reports
          path: ${REPORT_DIR}/
      - name: Show the results in the run's summary
        if: always()
        uses: mikepenz/action-junit-report@v5
        with:
          report_paths: ${REPORT_DIR}/**/*.xml
`

export class InitCommand extends QaCommand {
  static override paths = [['init']]
  static override usage = Command.Usage({
    description: 'Set up qa in a project: qa.config.json, a cases/ folder, .gitignore lines and a CI workflow.',
    details: `
      Writes, in the current folder (or --dir): qa.config.json (with "$schema" pointing at the schema @qa/model
      ships, for completion in your editor; reports in ${REPORT_DIR}/ as JSON, HTML and JUnit), cases/README.md
      (how to record and replay), .github/workflows/qa.yml (GitHub Actions: installs Chromium and Xvfb, replays
      every case in cases/ with verification, uploads the HTML report and JUnit), and adds the report folders to
      .gitignore (lines already there are kept; the rest of the file is never changed).
      A file that exists is not replaced unless --force is given; then nothing is written and the exit code is 2.
    `,
    examples: [
      ['Set up the current project', '$0 init'],
      ['Write the files again over the ones there', '$0 init --force'],
    ],
  })

  dir = Option.String('--dir', '.', { description: 'The project folder (default: the current folder).' })
  force = Option.Boolean('--force', false, { description: 'Replace qa.config.json, cases/README.md and qa.yml.' })

  async run(): Promise<number> {
    const project = resolve(this.dir)
    const info = await stat(project).catch(() => null)
    if (!info?.isDirectory())
      throw new UsageError(
        `--dir: ${project} is not a folder.`,
        'Create the project folder first, or run qa init in it.',
      )
    const files: [string, string][] = [
      ['qa.config.json', configText(schemaReference(project))],
      [join('cases', 'README.md'), CASES_README],
      [join('.github', 'workflows', 'qa.yml'), WORKFLOW],
    ]
    const existing = files.map(([name]) => name).filter((name) => existsSync(join(project, name)))
    if (existing.length > 0 && !this.force)
      throw new UsageError(
        `${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''} in ${project}; nothing was written.`,
        'Keep them, or write them again with qa init --force.',
      )
    for (const [name, text] of files) {
      await mkdir(join(project, name, '..'), { recursive: true })
      await writeFileAtomic(join(project, name), text, { overwrite: this.force })
      this.out(`wrote ${name}`)
    }
    const gitignore = join(project, '.gitignore')
    const before = await readFile(gitignore, 'utf8').catch(() => '')
    const have = new Set(before.split(/\r?\n/).map((l) => l.trim()))
    const add = GITIGNORE_LINES.filter((line) => !have.has(line) && !have.has(line.replace(/\/$/, '')))
    if (add.length > 0) {
      const gap = before === '' || before.endsWith('\n') ? '' : '\n'
      await writeFileAtomic(gitignore, `${before}${gap}# qa reports and demo output\n${add.join('\n')}\n`, {
        overwrite: true,
      })
      this.out(`${before === '' ? 'wrote' : 'added to'} .gitignore: ${add.join(' ')}`)
    }
    this.out('')
    this.out('Next: npx qa doctor, then npx qa record web <your app URL> --out cases/first.json')
    return EXIT_PASS
  }
}
