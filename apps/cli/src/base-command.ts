import { isQaError, QaError, terminalSafe } from '@qa/model'
import { Command } from 'clipanion'
import { EXIT_TEST_FAILED, EXIT_USAGE } from './exit-codes'

/** Error codes that mean "the user's input or setup is wrong" (exit 2) rather than "the test failed" (exit 1). */
const TEST_FAILURE_CODES = new Set(['TEST_FAILED'])

/**
 * Base of every `qa` command: subclasses implement `run()`; errors are printed as message + hint (never a stack
 * trace) and mapped to exit codes: 2 for usage/input errors, 1 for test failures.
 */
export abstract class QaCommand extends Command {
  abstract run(): Promise<number>

  async execute(): Promise<number> {
    try {
      return await this.run()
    } catch (error) {
      const err = isQaError(error) ? error : QaError.from(error)
      // a message may quote a case, a file name or a page: its control characters are shown escaped
      this.context.stderr.write(`qa: ${terminalSafe(err.message)}\n`)
      if (err.hint) this.context.stderr.write(`hint: ${terminalSafe(err.hint)}\n`)
      if (process.env.QA_DEBUG && error instanceof Error && error.stack) this.context.stderr.write(`${error.stack}\n`)
      return TEST_FAILURE_CODES.has(err.code) ? EXIT_TEST_FAILED : EXIT_USAGE
    }
  }

  protected out(line = ''): void {
    this.context.stdout.write(`${line}\n`)
  }

  protected err(line = ''): void {
    this.context.stderr.write(`${line}\n`)
  }
}
