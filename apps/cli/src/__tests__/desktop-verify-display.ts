import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CURRENT_FORMAT_VERSION, parseReplayReport } from '@qa/model'
import { encodePng, solidFrame, startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { afterAll, beforeAll } from 'vitest'
import { ensureBuilt, qaAsync } from './run-cli'

const W = 160
const H = 120

export interface DesktopVerifyDisplay {
  /** The test file's folder: `white.png` (a white screen of the display's size) is in it. */
  readonly dir: string
  /** A desktop case of harmless key presses, each verified against the named after-screenshot (in `dir`). */
  writeCase(name: string, shots: string[]): string
  /** `qa replay <file> --verify --json` on the display (no vision), its report parsed. */
  replay(
    file: string,
    reportDir: string,
    ...flags: string[]
  ): Promise<Awaited<ReturnType<typeof qaAsync>> & { report: ReturnType<typeof parseReplayReport> | null }>
}

/**
 * A small Xvfb (160×120) for the test file, started in `beforeAll` with the CLI built, stopped in `afterAll`: desktop
 * cases replayed with `--verify` on a real X display, no browser. Call it at the top of a test file.
 */
export function useDesktopVerifyDisplay(prefix: string): DesktopVerifyDisplay {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  let xvfb: VirtualDisplay
  beforeAll(async () => {
    ensureBuilt()
    xvfb = await startXvfb({ width: W, height: H })
    writeFileSync(join(dir, 'white.png'), await encodePng(solidFrame(W, H, [255, 255, 255])))
  }, 180_000)
  afterAll(() => xvfb?.stop())
  return {
    dir,
    writeCase(name, shots) {
      const file = join(dir, `${name}.json`)
      const doc = {
        version: CURRENT_FORMAT_VERSION,
        name,
        platform: 'desktop',
        screen: { width: W, height: H },
        actions: shots.map((shot, i) => ({
          timestamp: new Date(i * 1000).toISOString(),
          action_type: 'key_press',
          x: 0,
          y: 0,
          key: 'shift',
          description: `press shift ${i}`,
          screenshot_path: shot,
        })),
      }
      writeFileSync(file, JSON.stringify(doc))
      return file
    },
    async replay(file, reportDir, ...flags) {
      const r = await qaAsync(['replay', file, '--verify', '--json', '--report-dir', reportDir, ...flags], {
        env: { DISPLAY: xvfb.display, QA_VISION: 'none' },
      })
      const report = r.stdout.trim() ? parseReplayReport(JSON.parse(r.stdout)) : null
      return { ...r, report }
    },
  }
}
