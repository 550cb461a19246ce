import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Writes `<dir>/<file>`: a desktop case of two key presses (Escape, Tab). Nothing to locate, so it passes exactly
 * when the display takes real input — a desktop case any Xvfb can replay without a program to click.
 */
export function writeDesktopKeyCase(dir: string, file: string, name: string): string {
  const path = join(dir, file)
  writeFileSync(
    path,
    JSON.stringify({
      name,
      version: '3.0',
      platform: 'desktop',
      created_at: '2026-01-01T00:00:00Z',
      actions: [
        { timestamp: 0, action_type: 'key_press', key: 'Escape', x: 0, y: 0, description: 'Escape 누르기' },
        { timestamp: 100, action_type: 'key_press', key: 'Tab', x: 0, y: 0, description: 'Tab 누르기' },
      ],
    }),
  )
  return path
}

/**
 * Writes `<dir>/desktop.json`: a desktop case of one coordinate click. Enough for the checks that come before any
 * work (configuration, display, output collisions); no test replays it against a program.
 */
export function writeDesktopClickCase(dir: string): string {
  const path = join(dir, 'desktop.json')
  writeFileSync(
    path,
    JSON.stringify({
      name: 'd',
      version: '3.0',
      platform: 'desktop',
      actions: [{ timestamp: 0, action_type: 'click', x: 1, y: 2, description: 'c' }],
    }),
  )
  return path
}
