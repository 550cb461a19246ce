import { Builtins, Cli, type CommandClass } from 'clipanion'
import { commands } from './commands/index'
import { joinOptionalFlagValues } from './argv'
import { EXIT_USAGE } from './exit-codes'
import { QA_VERSION } from './version'

export interface MainContext {
  stdin?: NodeJS.ReadableStream
  stdout?: NodeJS.WritableStream
  stderr?: NodeJS.WritableStream
}

export function createCli(extra: CommandClass[] = []): Cli {
  const cli = new Cli({
    binaryLabel: 'qa — semantic record & replay for UI tests',
    binaryName: 'qa',
    binaryVersion: QA_VERSION,
    enableColors: !process.env.NO_COLOR && process.stdout.isTTY === true,
  })
  cli.register(Builtins.HelpCommand)
  cli.register(Builtins.VersionCommand)
  for (const command of [...commands, ...extra]) cli.register(command)
  return cli
}

/** Runs `qa` with the given arguments and returns the exit code (0 pass, 1 test failed, 2 usage/input error). */
export async function main(rawArgv: string[], context: MainContext = {}): Promise<number> {
  const argv = joinOptionalFlagValues(rawArgv)
  const cli = createCli()
  const stdout = (context.stdout ?? process.stdout) as NodeJS.WriteStream
  const stderr = (context.stderr ?? process.stderr) as NodeJS.WriteStream
  const stdin = (context.stdin ?? process.stdin) as NodeJS.ReadStream
  const full = { ...Cli.defaultContext, stdin, stdout, stderr }
  if (argv.length === 0) {
    stdout.write(cli.usage(null))
    return 0
  }
  try {
    cli.process(argv, full)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    stderr.write(`qa: ${message.trim()}\n`)
    stderr.write(`hint: run \`qa --help\` for the commands, or \`qa <command> --help\` for one command's options.\n`)
    return EXIT_USAGE
  }
  return cli.run(argv, full)
}
