import { type Action, isQaError, type TestCase } from '@qa/model'
import { loadTestCase } from '@qa/model/node'
import { dirname, isAbsolute, resolve } from 'node:path'
import { PlaywrightQaError } from './errors'
import { currentTestInfo } from './test-info'

export interface RecordedCase {
  /** Absolute path of the case file. */
  file: string
  /** Its folder: screenshot paths in the case are relative to it. */
  dir: string
  testCase: TestCase
}

/** A recorded case: a path to a case file (JSON, format 1.0–3.2), or one already loaded. */
export type CaseRef = string | RecordedCase

const loaded = new Map<string, Promise<RecordedCase>>()

/**
 * Where a case path points: relative paths are taken from the folder of the running test file (so a spec and
 * its cases move together), or from the current folder outside a test.
 */
export function resolveCasePath(path: string): string {
  if (isAbsolute(path)) return path
  const file = currentTestInfo()?.file
  return resolve(file ? dirname(file) : process.cwd(), path)
}

/** Loads (once per worker) and validates a case file; a bad file throws the model's error naming file and field. */
export async function loadRecordedCase(ref: CaseRef): Promise<RecordedCase> {
  if (typeof ref !== 'string') return ref
  const file = resolveCasePath(ref)
  let pending = loaded.get(file)
  if (!pending) {
    pending = loadTestCase(file).then((l) => ({ file: l.file, dir: l.dir, testCase: l.testCase }))
    loaded.set(file, pending)
    pending.catch(() => loaded.delete(file))
  }
  return pending
}

/** The recorded action `index` (0-based, as in the case file's `actions`), or a clear error. */
export function recordedAction(recorded: RecordedCase, index: number): Action {
  const action = Number.isInteger(index) ? recorded.testCase.actions[index] : undefined
  if (!action) {
    throw new PlaywrightQaError(
      'PW_NO_SUCH_STEP',
      `${recorded.file}: actions[${index}] does not exist; the case has ${recorded.testCase.actions.length} action(s) (0-based).`,
      { hint: 'Step numbers are 0-based indexes into the case file’s "actions".' },
    )
  }
  return action
}

/** A one-line message for an unknown throw (a QaError keeps its own message). */
export function messageOf(e: unknown): string {
  if (isQaError(e)) return e.message
  return e instanceof Error ? (e.message.split('\n')[0] ?? String(e)) : String(e)
}
