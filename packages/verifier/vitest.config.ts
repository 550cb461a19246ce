import { qaVitestConfig } from '../../vitest.shared'

// screens rendered and captured under Xvfb: one at a time. Comparing window-size frames takes seconds a test; a
// property of a hundred layouts (5 s idle) ran past the 30 s default while turbo built and tested every package side
// by side: a hang still fails, a slow machine does not
export default qaVitestConfig({ testTimeoutMs: 120_000, serialE2e: ['src/palette-transfer.e2e.test.ts'] })
