import { defineConfig } from 'vitest/config'

/**
 * Unit tests (`pnpm test`): fast, no network, display or browser — `*.test.ts` beside the code.
 * End-to-end tests (`pnpm test:e2e`, run by the README's full test command): `*.e2e.test.ts`, with real
 * Chromium, Xvfb, Redis and Tesseract data installed by scripts/test-all.sh.
 */
export function qaVitestConfig(opts: { testTimeoutMs?: number } = {}) {
  const e2e = process.env.QA_TEST_E2E === '1'
  return defineConfig({
    test: {
      include: e2e ? ['src/**/*.e2e.test.ts', 'test/**/*.e2e.test.ts'] : ['src/**/*.test.ts', 'test/**/*.test.ts'],
      exclude: e2e ? ['**/node_modules/**'] : ['**/node_modules/**', '**/*.e2e.test.ts'],
      testTimeout: opts.testTimeoutMs ?? (e2e ? 120_000 : 30_000),
      hookTimeout: e2e ? 120_000 : 30_000,
      passWithNoTests: e2e,
    },
  })
}
