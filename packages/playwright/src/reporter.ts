import { parseTestCase } from '@qa/model'
import { loadReplayReport, saveTestCase, writeFileAtomic } from '@qa/model/node'
import { writeReports } from '@qa/verifier'
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter'
import { existsSync, rmSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { HealRecord } from './heal'
import type { ReplayAttachment } from './replay-case'

export interface QaReporterOptions {
  /** Where our JSON/HTML report goes, relative to the config file (default `qa-report`, beside `playwright-report`). */
  outputFolder?: string
  /**
   * A folder to write verified heals back into (`--save-heals` semantics): for each case replayed with
   * `replayCase` whose test passed and whose steps healed with a verified screen, `<case>.healed.json` there.
   * Never the case file itself; an existing file is kept unless `force`.
   */
  saveHeals?: string | false
  force?: boolean
}

interface TestEntry {
  title: string
  file: string
  status: TestResult['status']
  heals: HealRecord[]
  replays: (ReplayAttachment & { html?: string; json?: string })[]
  savedHeals: string[]
}

function bodyJson<T>(attachment: TestResult['attachments'][number]): T | null {
  if (!attachment.body) return null
  try {
    return JSON.parse(attachment.body.toString('utf8')) as T
  } catch {
    return null
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

const slug = (s: string) =>
  s
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80) || 'test'

/** One line per heal: `button "로그인" → similarity 0.83 (role: not_found, similarity: matched)`. */
export function describeHeal(h: HealRecord): string {
  const tried = h.attempts
    .filter((a) => a.outcome !== 'skipped')
    .map((a) => `${a.strategy}: ${a.outcome}`)
    .join(', ')
  const where = h.actionIndex !== null ? `actions[${h.actionIndex}] ` : ''
  return `${where}${h.target} → ${h.strategy} ${h.confidence.toFixed(2)}${h.healed ? ' (healed)' : ''}${h.locator ? ` as ${h.locator}` : ''} [${tried}]`
}

/**
 * Playwright reporter: `reporter: [['html'], ['@qa/playwright/reporter', { saveHeals: 'healed' }]]`. Adds a
 * `qa-heals` summary (each heal's strategy, confidence and attempts) to every test that healed, writes our
 * report (`qa-report/index.html`, `qa-report/heals.json`, and per replayed case the JSON/HTML replay report)
 * beside Playwright's, and writes verified heals back only for tests that passed.
 */
export default class QaReporter implements Reporter {
  #opts: QaReporterOptions
  #root = process.cwd()
  #entries: TestEntry[] = []
  #pending: Promise<unknown>[] = []

  constructor(opts: QaReporterOptions = {}) {
    this.#opts = opts
  }

  printsToStdio(): boolean {
    return false
  }

  onBegin(config: FullConfig): void {
    this.#root = config.configFile ? dirname(config.configFile) : config.rootDir
    // a report folder of ours from an earlier run (it holds our heals.json) starts empty, as Playwright's does
    const dir = this.#dir()
    if (existsSync(join(dir, 'heals.json'))) rmSync(dir, { recursive: true, force: true })
  }

  #dir(): string {
    return resolve(this.#root, this.#opts.outputFolder ?? 'qa-report')
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const heals = result.attachments
      .filter((a) => a.name === 'qa-heal')
      .map((a) => bodyJson<HealRecord>(a))
      .filter((h): h is HealRecord => h !== null)
    const replays = result.attachments
      .filter((a) => a.name === 'qa-replay')
      .map((a) => bodyJson<ReplayAttachment>(a))
      .filter((r): r is ReplayAttachment => r !== null)
    if (heals.length > 0) {
      result.attachments.push({
        name: 'qa-heals',
        contentType: 'text/plain',
        body: Buffer.from(`${heals.map(describeHeal).join('\n')}\n`),
      })
    }
    const entry: TestEntry = {
      title: test.titlePath().filter(Boolean).join(' › '),
      file: test.location.file,
      status: result.status,
      heals,
      replays,
      savedHeals: [],
    }
    this.#entries.push(entry)
    if (this.#opts.saveHeals && result.status === 'passed') {
      for (const a of result.attachments.filter((x) => x.name === 'qa-healed-case')) {
        const healed = bodyJson<{ caseFile: string; testCase: unknown }>(a)
        if (healed) this.#pending.push(this.#saveHeals(entry, healed))
      }
    }
  }

  async #saveHeals(entry: TestEntry, healed: { caseFile: string; testCase: unknown }): Promise<void> {
    const dir = resolve(this.#root, this.#opts.saveHeals || '.')
    const out = join(dir, `${basename(healed.caseFile).replace(/\.json$/i, '')}.healed.json`)
    if (resolve(out) === resolve(healed.caseFile)) return // never over the input
    if (existsSync(out) && !this.#opts.force) {
      process.stderr.write(`qa: ${out} exists; heals not saved (set force: true to replace it)\n`)
      return
    }
    const parsed = parseTestCase(healed.testCase, { file: healed.caseFile })
    await saveTestCase(out, parsed.testCase, { overwrite: this.#opts.force ?? false })
    entry.savedHeals.push(out)
  }

  async onEnd(): Promise<void> {
    await Promise.allSettled(this.#pending)
    const dir = this.#dir()
    for (const [i, entry] of this.#entries.entries()) {
      for (const [j, replay] of entry.replays.entries()) {
        try {
          const report = await loadReplayReport(replay.reportJson)
          const written = await writeReports(report, dir, ['json', 'html'], {
            baseName: `${String(i).padStart(3, '0')}-${j}-${slug(entry.title)}`,
            baseDir: replay.caseDir,
          })
          Object.assign(replay, { json: written.json, html: written.html })
        } catch (e) {
          process.stderr.write(`qa: the replay report of ${replay.caseFile} could not be written: ${String(e)}\n`)
        }
      }
    }
    const tests = this.#entries.filter((e) => e.heals.length > 0 || e.replays.length > 0)
    await writeFileAtomic(join(dir, 'heals.json'), `${JSON.stringify({ tests }, null, 2)}\n`, { overwrite: true })
    await writeFileAtomic(join(dir, 'index.html'), renderIndex(tests, dir), { overwrite: true })
  }
}

function renderIndex(tests: TestEntry[], dir: string): string {
  const rows = tests
    .map((t) => {
      const heals = t.heals
        .map(
          (h) =>
            `<tr><td>${escapeHtml(h.actionIndex !== null ? `${h.actionIndex}` : '')}</td><td>${escapeHtml(h.target)}</td><td>${escapeHtml(h.strategy)}</td><td>${h.confidence.toFixed(2)}</td><td>${h.healed ? 'healed' : 'as recorded'}</td><td><code>${escapeHtml(h.locator)}</code></td><td>${escapeHtml(
              h.attempts
                .filter((a) => a.outcome !== 'skipped')
                .map((a) => `${a.strategy}: ${a.outcome}`)
                .join(', '),
            )}</td></tr>`,
        )
        .join('')
      const reports = t.replays
        .filter((r) => r.html)
        .map((r) => `<a href="${escapeHtml(basename(r.html ?? ''))}">${escapeHtml(basename(r.caseFile))}</a>`)
        .join(' · ')
      return `<section><h2 class="${t.status === 'passed' ? 'pass' : 'fail'}">${escapeHtml(t.status)} — ${escapeHtml(t.title)}</h2>${reports ? `<p>Replay reports: ${reports}</p>` : ''}${t.savedHeals.length ? `<p>Heals saved: ${t.savedHeals.map(escapeHtml).join(', ')}</p>` : ''}<table><tr><th>step</th><th>target</th><th>strategy</th><th>confidence</th><th></th><th>locator</th><th>attempts</th></tr>${heals}</table></section>`
    })
    .join('\n')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>qa heals</title><style>body{font:14px/1.5 system-ui,"Noto Sans CJK KR",sans-serif;margin:24px}table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left}.pass{color:#1a7f37}.fail{color:#cf222e}</style></head><body><h1>qa heals in this Playwright run</h1><p>${tests.length} test(s) with heals or replayed cases; report folder ${escapeHtml(dir)}</p>${rows}</body></html>\n`
}
