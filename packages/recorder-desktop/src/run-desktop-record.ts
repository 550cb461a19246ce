import { dirname, resolve } from 'node:path'
import type { TestCase } from '@qa/model'
import { saveTestCase } from '@qa/model/node'
import type { VisionConfig } from '@qa/vision'
import { createDesktopRecorder, type RecorderProgress } from './desktop-recorder'
import { desktopVision } from './desktop-vision'
import { assertRecordExtension } from './display'
import { type DesktopSession, openDesktop } from './open-desktop'

interface RunDesktopRecordCommon {
  out: string
  name?: string
  /** Analyse each click with this vision config (background queue); null → enrichment pending. */
  vision?: VisionConfig | null
  stopKey?: string
  settleMs?: number
  frameIntervalMs?: number
  /** Stop by itself after this long (besides the hotkey and `signal`). */
  durationMs?: number
  signal?: AbortSignal
  overwrite?: boolean
  /** Called once recording runs (hooks installed). */
  onReady?: () => void
  onProgress?: (p: RecorderProgress) => void
}

/**
 * What `runDesktopRecord` is told: an already open desktop (tests, demo), or the environment whose DISPLAY it opens
 * (the app passes its own).
 */
export type RunDesktopRecordOptions = RunDesktopRecordCommon &
  (
    | { desktop: DesktopSession; env?: undefined }
    | { desktop?: undefined; env: Readonly<Record<string, string | undefined>> }
  )

/** `qa record desktop`: records until the stop hotkey (default F10), the signal or the duration; saves the case. */
export async function runDesktopRecord(
  opts: RunDesktopRecordOptions,
): Promise<{ testCase: TestCase; file: string; stoppedBy: string }> {
  const file = resolve(opts.out)
  const own = !opts.desktop
  const desktop = opts.desktop ?? (await openDesktop(opts.env))
  // before the hook loads: without RECORD, uiohook aborts the process (exit 134) with a raw Xlib message
  await assertRecordExtension(desktop.display).catch(async (error) => {
    if (own) await desktop.close()
    throw error
  })
  const vision = opts.vision ? desktopVision(opts.vision) : null
  const windows = await desktop.windows()
  const recorder = createDesktopRecorder({
    input: desktop.hook,
    screen: desktop.screen,
    outDir: dirname(file),
    screenshotsDir: `${file.replace(/^.*\//, '').replace(/\.json$/i, '')}_screenshots`,
    ...(opts.name ? { name: opts.name } : {}),
    analyzer: vision?.elementAnalyzer ?? null,
    windowAt: windows ? (x, y) => windows.windowAt(x, y) : null,
    focusedWindow: windows ? () => windows.focused() : null,
    ...(opts.stopKey ? { coalesce: { stopKey: opts.stopKey } } : {}),
    ...(opts.settleMs !== undefined ? { settleMs: opts.settleMs } : {}),
    ...(opts.frameIntervalMs !== undefined ? { frameIntervalMs: opts.frameIntervalMs } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  })
  try {
    await recorder.start()
    opts.onReady?.()
    const waits: Promise<string>[] = [recorder.stopped]
    let timer: NodeJS.Timeout | undefined
    if (opts.durationMs) waits.push(new Promise((r) => (timer = setTimeout(() => r('duration'), opts.durationMs))))
    if (opts.signal)
      waits.push(new Promise((r) => opts.signal?.addEventListener('abort', () => r('signal'), { once: true })))
    const stoppedBy = await Promise.race(waits)
    clearTimeout(timer)
    const testCase = await recorder.stop()
    await saveTestCase(file, testCase, { overwrite: opts.overwrite ?? false })
    return { testCase, file, stoppedBy }
  } finally {
    await vision?.close()
    if (own) await desktop.close()
  }
}
