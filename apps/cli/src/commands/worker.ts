import type { Platform } from '@qa/model'
import { openArtifactStore, parseRedisUrl, startQueueWorker, webReplayer, webReplayerOptionsOf } from '@qa/runner'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { loadConfig } from '../config'
import { desktopSuitesOf } from '../desktop-suites'
import { reverifierOf } from '../reverifier'
import { EXIT_PASS } from '../exit-codes'
import { parsePositiveInt, parseRatioFlag, parseUrlFlag, parseViewport, UsageError } from '../usage-error'
import { untilSignal } from './serve'

/** `--tags web,desktop` → the platform queues to serve; only platforms this worker can replay. */
export function parseTagsFlag(value: string | undefined): Platform[] {
  const tags = (value ?? 'web')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean)
  if (tags.length === 0) throw new UsageError('--tags: expected a comma-separated list such as web.')
  for (const t of tags) {
    if (t !== 'web' && t !== 'desktop')
      throw new UsageError(`--tags: unknown platform "${t}"; expected web, desktop or web,desktop.`)
  }
  return [...new Set(tags)] as Platform[]
}

export class WorkerCommand extends QaCommand {
  static override paths = [['worker']]
  static override usage = Command.Usage({
    category: 'Agents & servers',
    description: 'Pull suite jobs from a `qa serve --queue` server through Redis (BullMQ), replay and verify them.',
    details: `
      Start any number of workers on any number of hosts with the same --queue as the server. Each worker takes
      --concurrency suites at a time from the queues of its --tags platforms, replays and verifies them with the
      same replay function as the in-process runner, writes the reports to --artifacts (a shared folder, or
      s3://bucket/prefix?endpoint=… so that hosts need no shared disk) and reports progress back to the server.
      A worker that dies mid-suite loses its lock after --lock-duration ms; another worker then retries the suite.
      Stops on Ctrl-C/SIGTERM after the active suites finish.
    `,
    examples: [
      ['Two suites at a time', '$0 worker --queue redis://127.0.0.1:6379 --concurrency 2'],
      [
        'Reports to S3-compatible storage',
        '$0 worker --queue redis://10.0.0.5:6379 --artifacts "s3://qa-artifacts/nightly?endpoint=http://10.0.0.6:9000"',
      ],
    ],
  })

  queue = Option.String('--queue', {
    required: true,
    description: 'Redis URL of the queue, e.g. redis://127.0.0.1:6379.',
  })
  concurrency = Option.String('--concurrency', { description: 'Suites replayed at the same time (default 1).' })
  tags = Option.String('--tags', { description: 'Platform queues to serve, comma-separated (default web).' })
  artifacts = Option.String('--artifacts', {
    description: 'Folder or s3://bucket/prefix?endpoint=… for cases and reports (default qa-reports).',
  })
  baseUrl = Option.String('--base-url,--url', {
    description:
      "Move every recorded URL on a case's recorded origin onto this base URL (--url: older name). Default: the server's (its --base-url or the --demo sample app), which each job carries.",
  })
  verify = Option.Boolean('--verify', true, {
    description: 'Compare steps with their screenshots (--no-verify to skip).',
  })
  threshold = Option.String('--threshold', { description: 'Similarity 0–1 a step needs to pass (default 0.95).' })
  lockDuration = Option.String('--lock-duration', {
    description: 'Milliseconds after which a silent worker’s suite is retried elsewhere (default 30000).',
  })
  workerId = Option.String('--id', { description: 'Name in the attempt history (default <host>-<pid>).' })
  display = Option.String('--display', {
    description: 'With --tags desktop: the X display this worker owns, e.g. :99 (default: DISPLAY).',
  })
  headed = Option.Boolean('--headed', false, { description: 'Show the browser window of web suites.' })
  viewport = Option.String('--viewport', {
    description: 'Every web case in this viewport WIDTHxHEIGHT (default: the recorded one, else browser.viewport).',
  })
  configPath = Option.String('--config', { description: 'Config file (default ./qa.config.json when present).' })

  async run(): Promise<number> {
    parseRedisUrl(this.queue)
    const concurrency = parsePositiveInt(this.concurrency, '--concurrency')
    const lockDurationMs = parsePositiveInt(this.lockDuration, '--lock-duration')
    const threshold = parseRatioFlag(this.threshold, '--threshold')
    const platforms = parseTagsFlag(this.tags)
    const baseUrl = parseUrlFlag(this.baseUrl, '--base-url')
    const viewport = parseViewport(this.viewport)
    const { config } = await loadConfig({
      configPath: this.configPath,
      flags: threshold !== undefined ? { verify: { passSimilarity: threshold } } : {},
    })
    const artifacts = await openArtifactStore(this.artifacts, 'qa-reports')
    // the same options as `qa replay`: one resolved config
    const web = webReplayer(
      webReplayerOptionsOf(config, {
        verify: this.verify,
        headed: this.headed,
        ...(viewport ? { viewport } : {}),
        env: process.env,
        reverifier: reverifierOf(config, this.verify),
        ...(baseUrl ? { baseUrl } : {}),
      }),
    )
    // a desktop worker owns one display and replays one suite at a time on it
    const desktop = desktopSuitesOf(config, { verify: this.verify, display: this.display })
    const worker = await startQueueWorker({
      url: this.queue,
      artifacts,
      platforms,
      replayers: { web, desktop },
      ...(concurrency ? { concurrency } : {}),
      ...(lockDurationMs ? { lockDurationMs, stalledIntervalMs: Math.max(500, Math.round(lockDurationMs / 2)) } : {}),
      ...(this.workerId ? { workerId: this.workerId } : {}),
      onLog: (line) => this.err(`[${this.workerId ?? process.pid}] ${line}`),
    })
    this.out(`qa worker ${worker.id}: serving ${worker.platforms.join(', ')} from ${this.queue}`)
    this.out(`Artifacts: ${artifacts.description}`)
    this.out('Press Ctrl-C to stop.')
    await untilSignal()
    await worker.close()
    await Promise.all([web.close(), desktop.close()])
    return EXIT_PASS
  }
}
