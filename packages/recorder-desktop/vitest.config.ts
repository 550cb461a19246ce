import { qaVitestConfig } from '../../vitest.shared'

export default qaVitestConfig({ testTimeoutMs: process.env.QA_TEST_E2E === '1' ? 150_000 : undefined })
