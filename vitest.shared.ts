import { basename, join } from 'node:path'
import { defineConfig } from 'vitest/config'

const E2E_FILES = ['src/**/*.e2e.test.ts', 'test/**/*.e2e.test.ts']

/**
 * Unit tests (`pnpm test`): fast, no network, display or browser — `*.test.ts` beside the code.
 * End-to-end tests (`pnpm test:e2e`, run by the README's full test command): `*.e2e.test.ts`, with real
 * Chromium, Xvfb, Redis and Tesseract data installed by scripts/test-all.sh.
 *
 * End-to-end files run two at a time (`QA_E2E_WORKERS` sets how many): most of their time is spent waiting for a
 * browser or a server. The files in `serialE2e` drive real X input or time what a screen shows (a person's pauses,
 * frames after a click); they run after the others, one at a time, so no other test shares the cores with them.
 */
export function qaVitestConfig(opts: { testTimeoutMs?: number; serialE2e?: string[] } = {}) {
  const e2e = process.env.QA_TEST_E2E === '1'
  const reporting = timingReporters(e2e)
  const timeouts = {
    testTimeout: opts.testTimeoutMs ?? (e2e ? 120_000 : 30_000),
    hookTimeout: e2e ? 120_000 : 30_000,
  }
  if (!e2e)
    return defineConfig({
      test: {
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        exclude: ['**/node_modules/**', '**/*.e2e.test.ts'],
        ...timeouts,
        ...reporting,
      },
    })
  const serial = opts.serialE2e ?? []
  const workers = Number(process.env.QA_E2E_WORKERS ?? 2)
  return defineConfig({
    test: {
      passWithNoTests: true,
      ...reporting,
      projects: [
        {
          extends: true as const,
          test: {
            name: 'e2e',
            include: E2E_FILES,
            exclude: ['**/node_modules/**', ...serial],
            maxWorkers: Number.isInteger(workers) && workers > 0 ? workers : 2,
            sequence: { groupOrder: 0 },
            ...timeouts,
          },
        },
        ...(serial.length
          ? [
              {
                extends: true as const,
                test: {
                  name: 'e2e-serial',
                  include: serial,
                  exclude: ['**/node_modules/**'],
                  fileParallelism: false,
                  sequence: { groupOrder: 1 },
                  ...timeouts,
                },
              },
            ]
          : []),
      ],
    },
  })
}

/**
 * With `QA_TEST_TIMINGS=<dir>`, every package also writes its test files' durations as JSON to
 * `<dir>/<package folder>-<unit|e2e>.json`, so a slow CI can be traced to its files.
 */
function timingReporters(e2e: boolean): { reporters?: (string | [string, { outputFile: string }])[] } {
  const dir = process.env.QA_TEST_TIMINGS
  if (!dir) return {}
  const outputFile = join(dir, `${basename(process.cwd())}-${e2e ? 'e2e' : 'unit'}.json`)
  return { reporters: ['default', ['json', { outputFile }]] }
}
