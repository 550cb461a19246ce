import { spawn } from 'node:child_process'

/** A `qa record desktop` under way: its exit, and what it printed so far. */
export interface DesktopRecording {
  exited: Promise<number | null>
  stdout(): string
  stderr(): string
}

/**
 * Starts `qa record desktop --out <caseFile>` (with `--analyze` when asked) as a user types it, and resolves once it
 * says it records (at most a minute). Shared by the desktop benches (desktop-real, games).
 */
export async function startDesktopRecording(
  qa: string,
  caseFile: string,
  opts: { analyze: boolean; env: NodeJS.ProcessEnv },
): Promise<DesktopRecording> {
  const args = [qa, 'record', 'desktop', '--out', caseFile, ...(opts.analyze ? ['--analyze'] : [])]
  const rec = spawn(process.execPath, args, { env: opts.env })
  let stderr = ''
  let stdout = ''
  rec.stdout?.on('data', (d) => {
    stdout += d
  })
  const exited = new Promise<number | null>((r) => rec.once('close', r))
  await new Promise<void>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`qa record desktop did not start: ${stderr}`)), 60_000)
    rec.stderr?.on('data', (d) => {
      stderr += d
      if (stderr.includes('Recording on')) {
        clearTimeout(timer)
        res()
      }
    })
  })
  return { exited, stdout: () => stdout, stderr: () => stderr }
}
