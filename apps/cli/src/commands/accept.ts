import { loadReplayReport } from '@qa/model/node'
import { Command, Option } from 'clipanion'
import { acceptFromReport, requestedSteps } from '../accept-baselines'
import { QaCommand } from '../base-command'

export class AcceptCommand extends QaCommand {
  static override paths = [['accept']]
  static override usage = Command.Usage({
    category: 'Record & replay',
    description: "Accept a replay's new look as the case's baseline, from the replay's JSON report.",
    details: `
      Reads a report written by \`qa replay <case> --verify\` (the JSON file in its report folder; for a folder
      replayed with --verify, each case's <report-dir>/runs/<run>/<case>/report.json) and writes into
      the case the steps' new evidence: the screenshots that replay took (before and after the step), an element
      crop cut at the element's box, the element's new place, and for a heal its new identity and selectors with
      a healing_history entry. Without --steps: every step that failed or healed (or warned on a compared screen). With --steps 3,5
      (or 2-4; step numbers from 1, as the report shows them): those steps, passed ones too.
      Only a step that was replayed and located can be accepted: a step whose element was not found is refused
      and named. The report must be of the case as it is now (its SHA-256 is in the report; a case changed since
      is refused), and its images as the replay wrote them.
      The report and its images are never written; the case file is replaced atomically (temp file + rename),
      its new images get new names in its screenshot folder, and the previous baseline — the case file and every
      screenshot it refers to — is kept in .<case>.history/<time>/ beside the case's screenshot folder
      (cases/login.json → cases/.login.history/20260101-120000-000/login.json). To go back, copy that folder's
      content over the case's folder.
      Web cases only: a desktop report is refused (its replay does not keep the screens and boxes this needs).
      Exit code: 0 every requested step was accepted (or, without --steps, nothing needed accepting); 1 some were
      accepted and the others refused (named); 2 bad input — an unreadable report, a report without acceptance
      evidence, a case changed since the replay, a missing or overwritten image, or every requested step refused —
      and then nothing is written.
    `,
    examples: [
      ['Accept every failed or healed step', '$0 accept qa-reports/replay_20260101_120000_ab12cd34.json'],
      ['Accept steps 3 and 5', '$0 accept qa-reports/replay_20260101_120000_ab12cd34.json --steps 3,5'],
    ],
  })

  file = Option.String({ name: 'report.json' })
  steps = Option.String('--steps', {
    description:
      'Steps to accept, numbered from 1 as the report shows them: 3,5 or 2-4 (default: every step that failed, warned or healed).',
  })

  async run(): Promise<number> {
    const requested = requestedSteps(this.steps, '--steps')
    const report = await loadReplayReport(this.file)
    const outcome = await acceptFromReport({
      report,
      reportFile: this.file,
      requested,
      flag: '--steps',
      log: (l) => this.err(l),
    })
    if (outcome.historyDir) this.out(`Accepted ${outcome.accepted.length} step(s) into ${outcome.caseFile}`)
    return outcome.exitCode
  }
}
