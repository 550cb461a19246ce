import { qaVitestConfig } from '../../vitest.shared'

// screens rendered and captured under Xvfb: one at a time
export default qaVitestConfig({ serialE2e: ['src/palette-transfer.e2e.test.ts'] })
