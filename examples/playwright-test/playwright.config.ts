import { defineConfig } from '@playwright/test'

// the exported spec reads the recorded password step's secret from the environment (the sample app takes any)
process.env.QA_SECRET_PASSWORD ??= 'secret'

const SAMPLE_PORT = Number(process.env.QA_EXAMPLE_SAMPLE_PORT ?? 4174)
const CORPUS_PORT = Number(process.env.QA_EXAMPLE_CORPUS_PORT ?? 4175)
/** `v2` (the redesign, default) or `removal` (the recorded targets removed, look-alikes left: runs must fail). */
const VARIANT = process.env.QA_EXAMPLE_VARIANT ?? 'v2'
/** Where results and reports go (default: this folder). */
const OUT = process.env.QA_EXAMPLE_OUT ?? '.'

export default defineConfig({
  testDir: 'tests',
  outputDir: `${OUT}/test-results`,
  workers: 1,
  timeout: 60_000,
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: `${OUT}/playwright-report` }],
    ['json', { outputFile: `${OUT}/playwright-report/results.json` }],
    ['@qa/playwright/reporter', { outputFolder: `${OUT}/qa-report`, saveHeals: `${OUT}/healed-cases`, force: true }],
  ],
  use: {
    baseURL: `http://127.0.0.1:${SAMPLE_PORT}`,
    viewport: { width: 1280, height: 720 },
    // Debian's Chromium: no browser download (QA_CHROMIUM overrides)
    launchOptions: {
      executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    },
  },
  webServer: {
    command: 'node serve.mjs',
    url: `http://127.0.0.1:${SAMPLE_PORT}/__health`,
    env: { SAMPLE_PORT: String(SAMPLE_PORT), CORPUS_PORT: String(CORPUS_PORT), SAMPLE_VARIANT: VARIANT },
    reuseExistingServer: false,
    timeout: 60_000,
  },
  metadata: { corpusUrl: `http://127.0.0.1:${CORPUS_PORT}` },
})
