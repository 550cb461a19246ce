import { spawn } from 'node:child_process'

export interface CliOutcome {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs the `qa` command (the built `apps/cli/bin/qa.js`) exactly as a user types it, without blocking the
 * event loop (the corpus server answers in the same process).
 */
export function runCli(cliPath: string, args: readonly string[], cwd?: string): Promise<CliOutcome> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }))
  })
}
