import { spawn, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const bin = fileURLToPath(new URL('../../bin/qa.js', import.meta.url))
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url))

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the built `qa` synchronously (fast commands). */
export function qa(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): CliRun {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    cwd: opts.cwd,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Runs the built `qa` without blocking the event loop (commands that talk to servers in this process). */
export function qaAsync(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
