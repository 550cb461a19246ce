import { serializeReplayReport } from '@qa/model'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { isDirectory, loadTestCase, saveTestCaseCopy, screenshotFolderOf, writeFileAtomic } from '@qa/model/node'
import type { WebReplayOutcome } from '@qa/recorder-cdp'
import { healsFolderOf } from '@qa/recorder-desktop'
import { parseShardSpec, type ReplayCaseOutcome, replayCase } from '@qa/runner'
import { renderReport } from '@qa/verifier'
import { Command, Option } from 'clipanion'
import { acceptFromReport, checkStepsExist, requestedSteps } from '../accept-baselines'
import { QaCommand } from '../base-command'
import { replayDesktopFromCli } from '../desktop-replay'
import { loadConfig } from '../config'
import { reverifierOf } from '../reverifier'
import { createProgress } from '../progress'
import { reportLine } from '../report-line'
import { firstCauseLine, replayStepLine } from '../step-line'
import { EXIT_PASS, EXIT_TEST_FAILED, EXIT_USAGE } from '../exit-codes'
import { caseInputs, guardOutputs } from '../output-guard'
import { parsePositiveInt, parseRatioFlag, parseUrlFlag, parseViewport, UsageError } from '../usage-error'
import { replayFolderFromCli } from './replay-shard'

export class ReplayCommand extends QaCommand {
  static override paths = [['replay']]
  static override usage = Command.Usage({
    category: 'Record & replay',
    description: 'Replay a recorded case, finding each element again even when the UI changed, and verify it.',
    details: `
      Web cases run in Chromium: each step's element is located by role+name, aria-label, form name, test id,
      stored CSS/XPath, text, then multi-attribute similarity; the strategy that found it is reported per step.
      With --verify every step's screen is compared with its recorded screenshot (pass ≥ --threshold, default
      0.95). All steps run even when one fails; the first failed step is named the first cause, and after a
      step not found, the steps on a page unchanged since are looked for once, without waiting.
      --max-failures N (config replay.maxFailures) stops a case after N failed steps: the rest are reported
      as not run. Reports (JSON, TXT, HTML) go to --report-dir.
      --url is the start URL of the case, opened exactly as given (path, query and hash); recorded navigations
      on the recorded start's origin move onto its origin and keep their own paths. --base-url moves every
      recorded URL on a case's recorded origin onto the base (its origin, its path as a prefix): the option for
      a folder or a shard, where --url means --base-url.
      Desktop cases: fast path (the recorded crop still at the recorded place), semantic match on the vision
      analysis, multi-scale template matching of the crop, OCR text search. A step whose target none of them
      finds fails with "not found" and the strategies tried; nothing is clicked. --allow-coordinates (or
      "replay": { "allowCoordinates": true } in the config) clicks the recorded point instead, for coordinate-only
      legacy cases; such steps are reported with method "coordinate" and a warning, never as located.
      Web cases imported from Chrome DevTools (qa import devtools): a selector of the recording that names exactly
      one visible element is that element (the groups in the recording's order, resolved as @puppeteer/replay
      resolves them: shadow-root paths, pierce/, aria/, text/, xpath/); the cascade heals only when none does. Such
      a step never falls back to coordinates unless --allow-coordinates is given, and even then a click landing on
      the page itself or typing with no field focused fails with the reason.
      --save-heals on a desktop case writes each verified heal (the click's new place and a crop cut there) to a
      new case in the case's folder, with the new crops in a <name>_heals folder beside it.
      A folder or --shard honours the same config and flags as one case (--config, --headed, --viewport,
      --files-dir, --threshold, --timeout, masks, vision) and writes --junit from the merged report;
      --save-heals works with one case only.
      --junit and --save-heals never name the case or one of its screenshots, and an existing file needs --force;
      both are checked before the browser starts.
      --update-baselines (web, with --verify, one case) accepts this replay's look as the case's new baseline, as
      Playwright's --update-snapshots does: alone, every step that failed or healed (or warned on a compared screen); with a list
      (--update-baselines 3,5 or 2-4, step numbers from 1 as the report shows them) those steps, passed ones too.
      Each accepted step gets the screenshots taken in this replay (before and after), an element crop cut at
      the element's box, its new place, and for a heal its new identity and selectors with a healing_history
      entry. Only a step that was replayed and located can be accepted; a step whose element was not found is
      refused and named. The case is replaced atomically; the previous baseline (the case file and every
      screenshot it refers to) is kept in .<case>.history/<time>/ beside the case's screenshot folder
      (cases/login.json → cases/.login.history/). The same from a report written earlier: qa accept <report.json>.
      Every --verify replay with a report folder keeps what accepting needs: the JSON report's "acceptance"
      (the case's SHA-256, per step the screens before and after in <report-dir>/artifacts, the element's box).
      Exit code: 0 the test passed, 1 a step failed, 2 bad input (unreadable case, a case with no actions and no start page, a
      folder with an unreadable case or none at all, unreachable URL, bad flag). With --update-baselines: 0 when
      every step to accept was accepted (the case is green on this build), 1 when some could not be (named),
      2 when none of them could (nothing written).
    `,
    examples: [
      [
        'Replay on another build: this exact start URL, later pages on its origin',
        '$0 replay cases/login.json --url http://127.0.0.1:4000/login?build=2 --verify',
      ],
      ['Every case of a folder against another host', '$0 replay cases/ --base-url http://staging.local:8080/'],
      ['CI: JUnit + JSON only on stdout', '$0 replay cases/login.json --verify --junit results.xml --json'],
      ['Every case of a folder, as the 2nd of 4 CI shards', '$0 replay cases/ --shard 2/4 --verify'],
      ['Accept the new look of every changed or healed step', '$0 replay cases/login.json --verify --update-baselines'],
      ['Accept steps 3 and 5 only', '$0 replay cases/login.json --verify --update-baselines 3,5'],
      [
        'Learn verified heals into a new case',
        '$0 replay cases/login.json --verify --save-heals cases/login.healed.json',
      ],
    ],
  })

  casePath = Option.String({ name: 'case' })
  url = Option.String('--url', {
    description:
      'Start URL of the case, opened exactly as given (path, query, hash); later recorded URLs on the recorded origin move to its origin. With a folder: same as --base-url.',
  })
  baseUrl = Option.String('--base-url', {
    description: "Move every recorded URL on a case's recorded origin onto this base URL (for folders and shards).",
  })
  verify = Option.Boolean('--verify', false, { description: 'Compare each step with its recorded screenshot.' })
  // no clipanion default: a flag left out never overrides replay.reportDir / QA_REPORT_DIR (loadConfig's default)
  reportDir = Option.String('--report-dir', {
    description: 'Folder for the reports (default: replay.reportDir, QA_REPORT_DIR, else qa-reports).',
  })
  threshold = Option.String('--threshold', { description: 'Similarity 0–1 a step needs to pass (default 0.95).' })
  json = Option.Boolean('--json', false, { description: 'Print the report JSON on stdout and nothing else.' })
  junit = Option.String('--junit', { description: 'Also write a JUnit XML report to this file.' })
  saveHeals = Option.String('--save-heals', {
    description: 'Write the case with verified heals learnt to this new file.',
  })
  updateBaselines = Option.String('--update-baselines', {
    tolerateBoolean: true,
    description:
      'Accept this replay as the new baseline (needs --verify): alone, every step that failed or healed; or the steps listed, from 1 (3,5 or 2-4). The old baseline is kept in .<case>.history/.',
  })
  force = Option.Boolean('--force', false, {
    description: 'Replace the --junit and --save-heals files when they exist.',
  })
  viewport = Option.String('--viewport', { description: 'Viewport WIDTHxHEIGHT (default: the recorded one).' })
  timeout = Option.String('--timeout', {
    description: 'Milliseconds an element gets to become actionable (default 5000).',
  })
  allowCoordinates = Option.Boolean('--allow-coordinates', {
    description:
      'Desktop: click the recorded point when no strategy finds the target (coordinate-only legacy cases); reported as "coordinate". Web: a step imported from a DevTools recording whose element none of its selectors names is acted on at its recorded point (it still fails when that point is the page itself or typing reaches no field). Default off: such a step fails with "not found".',
  })
  filesDir = Option.String('--files-dir', {
    description:
      'Folder with the files that steps choose in a file chooser (found by the recorded names; default: the case folder; config replay.filesDir).',
  })
  headed = Option.Boolean('--headed', false, { description: 'Show the browser window.' })
  configPath = Option.String('--config', { description: 'Config file (default ./qa.config.json when present).' })
  maxFailures = Option.String('--max-failures', {
    description:
      'Stop a case after this many failed steps; the steps after it are reported as not run (default: every step runs; config replay.maxFailures).',
  })
  shard = Option.String('--shard', {
    description: 'With a folder: run only shard k/n of its cases (sorted, dealt round-robin), e.g. 2/4.',
  })

  async run(): Promise<number> {
    const threshold = parseRatioFlag(this.threshold, '--threshold')
    const timeout = parsePositiveInt(this.timeout, '--timeout')
    const maxFailures = parsePositiveInt(this.maxFailures, '--max-failures')
    const viewportFlag = parseViewport(this.viewport)
    const url = parseUrlFlag(this.url, '--url')
    const baseUrlFlag = parseUrlFlag(this.baseUrl, '--base-url')
    const { config } = await loadConfig({
      configPath: this.configPath,
      flags: {
        ...(threshold !== undefined ? { verify: { passSimilarity: threshold } } : {}),
        replay: {
          ...(this.reportDir !== undefined ? { reportDir: this.reportDir } : {}),
          ...(timeout ? { actionTimeoutMs: timeout } : {}),
          ...(this.allowCoordinates !== undefined ? { allowCoordinates: this.allowCoordinates } : {}),
          ...(this.filesDir !== undefined ? { filesDir: this.filesDir } : {}),
          ...(maxFailures ? { maxFailures } : {}),
        },
      },
    })
    if (config.replay.filesDir && !(await isDirectory(config.replay.filesDir)))
      throw new UsageError(
        `${this.filesDir !== undefined ? '--files-dir' : 'replay.filesDir'} ${config.replay.filesDir} is not a folder; nothing was replayed.`,
        'Name the folder that holds the files the case chooses in a file chooser.',
      )
    if (this.shard !== undefined || (await isDirectory(this.casePath))) {
      if (url && baseUrlFlag)
        throw new UsageError(
          '--url and --base-url were both given for a folder; with many cases --url means --base-url.',
          'Pass only --base-url <url>.',
        )
      if (url && !this.json)
        this.err(
          `--url with a folder means --base-url: every recorded URL on a case's recorded origin moves onto ${url}.`,
        )
      // a flag the folder route does not honour is refused, never silently dropped
      if (this.updateBaselines !== undefined)
        throw new UsageError(
          `--update-baselines works with one case, not with a folder or --shard (${this.casePath}); nothing was replayed.`,
          'Replay one case: qa replay <case.json> --verify --update-baselines; or accept a case of a folder replayed with --verify from its own report: qa accept <report-dir>/runs/<run>/<case>/report.json [--steps 3,5].',
        )
      if (this.saveHeals !== undefined)
        throw new UsageError(
          `--save-heals works with one case, not with a folder or --shard (${this.casePath}); nothing was replayed.`,
          'Replay the case whose heals you want to keep on its own: qa replay <case.json> --verify --save-heals <new.json>.',
        )
      const baseUrl = baseUrlFlag ?? url
      if (!(await isDirectory(this.casePath)))
        throw new UsageError(
          `--shard needs a folder of cases, and ${this.casePath} is not a folder.`,
          'Pass the folder: qa replay --shard 2/4 cases/',
        )
      return replayFolderFromCli({
        dir: this.casePath,
        reportDirFlag: this.reportDir !== undefined ? '--report-dir' : 'replay.reportDir',
        ...(this.shard !== undefined ? { shard: parseShardSpec(this.shard) } : {}),
        ...(baseUrl ? { baseUrl } : {}),
        config,
        verify: this.verify,
        headed: this.headed,
        ...(viewportFlag ? { viewport: viewportFlag } : {}),
        ...(this.junit !== undefined ? { junit: this.junit } : {}),
        force: this.force,
        json: this.json,
        out: (l) => this.out(l),
        err: (l) => this.err(l),
      })
    }
    if (this.saveHeals && !this.verify)
      throw new UsageError('--save-heals needs --verify: a heal is learnt only when the step is proven right.')
    const update =
      this.updateBaselines === undefined ? null : requestedSteps(this.updateBaselines, '--update-baselines')
    if (update && !this.verify)
      throw new UsageError(
        '--update-baselines needs --verify: the new baseline is the screens this replay verified; nothing was replayed.',
        `Run: qa replay ${this.casePath} --verify --update-baselines${typeof this.updateBaselines === 'string' ? ` ${this.updateBaselines}` : ''}`,
      )
    if (update && this.saveHeals)
      throw new UsageError(
        '--update-baselines and --save-heals were both given: --update-baselines writes the heals into the case itself; nothing was replayed.',
        'Pass one of them.',
      )
    const loaded = await loadTestCase(this.casePath)
    const tc = loaded.testCase
    if (update) {
      if (tc.platform !== 'web')
        throw new UsageError(
          `--update-baselines works for web cases; ${this.casePath} is a ${tc.platform} case (the desktop replay does not keep each step's screens and located box); nothing was replayed.`,
          'Record the desktop flow again (qa record desktop), or keep verified heals with --save-heals <new.json>.',
        )
      checkStepsExist(update, tc.actions.length, '--update-baselines', this.casePath)
    }
    // a web case that only opens its start page (a DevTools recording that only navigates) replays: the page
    // loading is the test, as in the reference
    if (tc.actions.length === 0 && !(tc.platform === 'web' && (tc.startUrl || url || baseUrlFlag)))
      throw new UsageError(
        `${this.casePath} has no actions; there is nothing to replay.`,
        'Record the flow again (qa record web … --script steps.json), or check that this is the right file.',
      )
    if (this.saveHeals && tc.platform !== 'web') {
      // the healed case keeps referring to the recording's screenshots, which must stay inside its folder
      const up = relative(dirname(resolve(this.saveHeals)), loaded.dir)
      if (up.startsWith('..') || isAbsolute(up))
        throw new UsageError(
          `--save-heals ${this.saveHeals}: the healed copy of a desktop case goes in the case's folder (${loaded.dir}) or a folder above it, from where its screenshots can be referenced; nothing was replayed.`,
          `Use --save-heals ${join(loaded.dir, basename(this.saveHeals))}.`,
        )
    }
    // the reports and their artifacts never go into a folder of the case's screenshots (a replay's
    // step-000-before.png would replace the recorded one)
    const reportDirFlag = this.reportDir !== undefined ? '--report-dir' : 'replay.reportDir'
    await guardOutputs({
      outputs: [
        { path: config.replay.reportDir, flag: reportDirFlag, shared: true },
        { path: join(config.replay.reportDir, 'artifacts'), flag: reportDirFlag, shared: true },
        this.junit && { path: this.junit, flag: '--junit' },
        this.saveHeals && { path: this.saveHeals, flag: '--save-heals' },
        // a desktop case's new crops go into a folder beside it
        this.saveHeals &&
          tc.platform !== 'web' && { path: healsFolderOf(this.saveHeals), flag: '--save-heals', folder: true },
        // a web case saved in another folder takes copies of its screenshots into its own folder
        this.saveHeals &&
          tc.platform === 'web' &&
          dirname(resolve(this.saveHeals)) !== loaded.dir && {
            path: screenshotFolderOf(this.saveHeals),
            flag: '--save-heals',
            folder: true,
          },
      ],
      inputs: caseInputs(loaded),
      force: this.force,
      nothing: 'nothing was replayed',
    })
    if (tc.platform !== 'web') {
      return replayDesktopFromCli({
        casePath: this.casePath,
        config,
        verify: this.verify,
        allowCoordinates: config.replay.allowCoordinates,
        reportDir: resolve(config.replay.reportDir),
        json: this.json,
        ...(this.junit ? { junit: this.junit } : {}),
        ...(this.saveHeals ? { saveHeals: this.saveHeals } : {}),
        force: this.force,
        out: (l) => this.out(l),
        err: (l) => this.err(l),
      })
    }
    const progress = createProgress(this.context.stderr as NodeJS.WriteStream, { silent: this.json })
    const log = (line: string) => progress.line(line)
    const reportDir = resolve(config.replay.reportDir)
    let replayed: ReplayCaseOutcome
    try {
      // the one replay path (the folder, the shard, the server, the worker and the demo take it too): the case's
      // browser, the config's thresholds, masks and timeouts, and the reports in the config's formats
      replayed = await replayCase(loaded, config, {
        verify: this.verify,
        env: process.env,
        headed: this.headed,
        ...(url ? { url } : {}),
        ...(baseUrlFlag ? { baseUrl: baseUrlFlag } : {}),
        ...(viewportFlag ? { viewport: viewportFlag } : {}),
        reverifier: reverifierOf(config, this.verify),
        reports: { dir: reportDir },
        onProgress: log,
        onStepStart: ({ index, total, action }) => progress.status(`[${index + 1}/${total}] ${action.description}`),
        onStep: ({ index, total, result, verification, firstCause }) =>
          log(
            replayStepLine(
              { index, total, description: tc.actions[index]?.description ?? '', result, verification, firstCause },
              (w) => progress.verdict(w),
            ),
          ),
      })
    } finally {
      progress.done()
    }
    const outcome = replayed.web as WebReplayOutcome
    const written = replayed.reportFiles
    if (this.junit)
      await writeFileAtomic(this.junit, await renderReport(outcome.report, 'junit', { baseDir: loaded.dir }), {
        overwrite: this.force,
      })
    if (this.saveHeals) {
      await saveTestCaseCopy(this.saveHeals, outcome.healedCase, { fromDir: loaded.dir, overwrite: this.force })
      log(`Learnt ${outcome.healedSteps.length} verified heal(s) into ${this.saveHeals}`)
    }
    if (this.json) this.out(JSON.stringify(serializeReplayReport(outcome.report)))
    else {
      const cause = firstCauseLine(outcome.report)
      if (cause) this.out(cause)
      this.out(outcome.report.summary)
      this.out(reportLine(written))
    }
    if (update) {
      // the report as written (or as it would be: its paths are relative to the report folder)
      const accepted = await acceptFromReport({
        report: outcome.report,
        reportFile: written.json ?? join(reportDir, 'replay.json'),
        requested: update,
        flag: '--update-baselines',
        log,
      }).catch((e: unknown) => {
        this.err(`qa: ${(e as Error).message}`)
        if ((e as { hint?: string }).hint) this.err(`hint: ${(e as { hint?: string }).hint}`)
        return null
      })
      if (!accepted) return EXIT_USAGE
      if (accepted.historyDir === null) return outcome.passed ? EXIT_PASS : EXIT_TEST_FAILED
      return accepted.exitCode
    }
    return outcome.passed ? EXIT_PASS : EXIT_TEST_FAILED
  }
}
