// `qa replay <desktop case>` ignored `verify.masks` (and `replay.matchThreshold`) of the config, while
// a folder went its own way. Now every desktop route takes the same settings (desktopReplaySettingsOf). A desktop
// case recorded a live panel appearing (a clock, a chart) that the replayed screen does not show: unmasked, its
// expected region fails the step through the single-case route and the folder route alike; with the panel in
// `verify.masks` of qa.config.json, both pass. Real Xvfb, real screen capture, the built CLI.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseReplayReport } from '@qa/model'
import { openDesktop, startXvfb, type VirtualDisplay } from '@qa/recorder-desktop'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodePng } from '../__tests__/png'
import { ensureBuilt, qaAsync } from '../__tests__/run-cli'

const PANEL = { x: 200, y: 150, width: 300, height: 200 }
let xvfb: VirtualDisplay
let dir = ''

beforeAll(async () => {
  ensureBuilt()
  xvfb = await startXvfb({ width: 800, height: 600 })
  // the screen as it is (Xvfb's root window), and the same with the panel the recording saw appear
  process.env.DISPLAY = xvfb.display // the native capture opens the process's DISPLAY
  const desktop = await openDesktop({ DISPLAY: xvfb.display })
  const screen = await desktop.screen.capture()
  await desktop.close()
  const withPanel = new Uint8Array(screen.data)
  for (let y = PANEL.y; y < PANEL.y + PANEL.height; y++)
    for (let x = PANEL.x; x < PANEL.x + PANEL.width; x++) withPanel.set([21, 101, 192, 255], (y * screen.width + x) * 4)
  dir = mkdtempSync(join(tmpdir(), 'qa-desktop-masks-'))
  const cases = join(dir, 'cases')
  mkdirSync(cases)
  writeFileSync(join(cases, 'before.png'), encodePng(screen.width, screen.height, new Uint8Array(screen.data)))
  writeFileSync(join(cases, 'after.png'), encodePng(screen.width, screen.height, withPanel))
  writeFileSync(
    join(cases, 'panel.json'),
    JSON.stringify({
      name: '패널',
      version: '3.0',
      platform: 'desktop',
      created_at: '2026-01-01T00:00:00Z',
      screen: { width: screen.width, height: screen.height, scale: 1 },
      actions: [
        {
          timestamp: 0,
          action_type: 'key_press',
          key: 'Escape',
          x: 0,
          y: 0,
          description: 'Escape 누르기',
          screenshot_before_path: 'before.png',
          screenshot_path: 'after.png',
        },
      ],
    }),
  )
  writeFileSync(join(dir, 'plain.json'), JSON.stringify({ verify: { masks: [] } }))
  writeFileSync(join(dir, 'masked.json'), JSON.stringify({ verify: { masks: [PANEL] } }))
}, 120_000)

afterAll(async () => {
  await xvfb?.stop()
})

async function replay(target: string, config: string, reports: string) {
  const r = await qaAsync(
    ['replay', target, '--verify', '--json', '--config', join(dir, config), '--report-dir', join(dir, reports)],
    { env: { DISPLAY: xvfb.display, QA_VISION: 'none' } },
  )
  const report = parseReplayReport(JSON.parse(r.stdout))
  return { code: r.code, stderr: r.stderr, verdicts: report.verificationResults.map((v) => v.finalResult) }
}

describe('verify.masks of the config on every desktop route', () => {
  it.each([
    ['a single case', () => join(dir, 'cases', 'panel.json')],
    ['a folder', () => join(dir, 'cases')],
  ])(
    '%s: the unmasked change fails, the masked one passes',
    async (route, target) => {
      const tag = route.replace(/\W+/g, '-')
      const unmasked = await replay(target(), 'plain.json', `r-plain-${tag}`)
      expect(unmasked.verdicts, unmasked.stderr).toEqual(['fail'])
      expect(unmasked.code).toBe(1)
      const masked = await replay(target(), 'masked.json', `r-masked-${tag}`)
      expect(masked.verdicts, masked.stderr).toEqual(['pass'])
      expect(masked.code).toBe(0)
    },
    120_000,
  )
})
