import { type ChildProcessWithoutNullStreams, execFile, execFileSync, spawn, spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

/** The built `qa` started: `result` resolves when it exits; `output()` is what it printed so far. */
export interface StartedQa {
  child: ChildProcessWithoutNullStreams
  result: Promise<CliRun>
  output(): { stdout: string; stderr: string }
  exited(): boolean
}

/** Starts the built `qa` without waiting for it (a test that signals it midway, or reads its files meanwhile). */
export function startQa(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): StartedQa {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
  })
  let stdout = ''
  let stderr = ''
  let done = false
  child.stdout.on('data', (d) => {
    stdout += d
  })
  child.stderr.on('data', (d) => {
    stderr += d
  })
  const result = new Promise<CliRun>((resolve) =>
    child.on('close', (code) => {
      done = true
      resolve({ code, stdout, stderr })
    }),
  )
  return { child, result, output: () => ({ stdout, stderr }), exited: () => done }
}

/** Runs the built `qa` without blocking the event loop (commands that talk to servers in this process). */
export function qaAsync(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return startQa(args, opts).result
}

const cliDir = fileURLToPath(new URL('../../', import.meta.url))

/**
 * Rebuilds the CLI first when a source file is newer than dist. Serialised with flock so that test files running
 * in parallel never rebuild under each other.
 */
export function ensureBuilt(): void {
  const script = `
    const fs = require('node:fs'), path = require('node:path'), cp = require('node:child_process');
    const newest = (d) => fs.readdirSync(d, { withFileTypes: true }).reduce((t, e) => { const p = path.join(d, e.name); return Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs) }, 0);
    const built = 'dist/main.js';
    if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < newest('src')) cp.execFileSync('pnpm', ['build'], { stdio: 'ignore' });`
  execFileSync('flock', [join(tmpdir(), 'qa-cli-build.lock'), process.execPath, '-e', script], {
    cwd: cliDir,
    stdio: 'ignore',
  })
}

/** Runs the built `qa`; the exit code is 99 when the process could not report one. */
export function runBuilt(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 99) : 0, stdout, stderr })
    })
  })
}
