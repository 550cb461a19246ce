import { type LoadedTestCase, loadTestCase } from '@qa/model/node'
import { WebError } from '@qa/recorder-cdp'
import { caseInputs, guardOutputs } from './output-guard'

/**
 * The web case an export reads (`qa export devtools`, `qa export playwright`): --out checked before any work (never
 * the case or its screenshots, an existing file only with --force), and a desktop case refused (exit 2).
 */
export async function loadWebCaseToExport(opts: {
  casePath: string
  outFile: string
  force: boolean
  /** What it is exported to, for the message: "DevTools", "Playwright". */
  to: string
}): Promise<LoadedTestCase> {
  const loaded = await loadTestCase(opts.casePath)
  await guardOutputs({
    outputs: [{ path: opts.outFile, flag: '--out' }],
    inputs: caseInputs(loaded),
    force: opts.force,
    nothing: 'nothing was exported',
  })
  if (loaded.testCase.platform !== 'web') {
    throw new WebError(
      'WEB_NOT_A_WEB_CASE',
      `${opts.casePath} is a ${loaded.testCase.platform} case; only web cases can be exported to ${opts.to}.`,
      { hint: 'Record the flow in a browser with `qa record web`, or import one with `qa import devtools`.' },
    )
  }
  return loaded
}
