import { defineConfig } from '@playwright/test'

// the exported spec reads the recorded password step's secret from the environment (the sample app takes any)
process.env.QA_SECRET_PASSWORD ??= 'secret'

const SAMPLE_PORT = 4174
const CORPUS_PORT = 4175

export default defineConfig({
  testDir: 'tests',
  workers: 1,
  timeout: 60_000,
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
    ['json', { outputFile: 'playwright-report/results.json' }],
    ['@qa/playwright/reporter', { outputFolder: 'qa-report', saveHeals: 'healed-cases', force: true }],
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
    env: { SAMPLE_PORT: String(SAMPLE_PORT), CORPUS_PORT: String(CORPUS_PORT) },
    reuseExistingServer: false,
    timeout: 60_000,
  },
  metadata: { corpusUrl: `http://127.0.0.1:${CORPUS_PORT}` },
})
