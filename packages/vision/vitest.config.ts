import { qaVitestConfig } from '../../vitest.shared'

// real Tesseract on real PNGs takes seconds a test; on a loaded 2-core machine (unit tests of every package run side
// by side) one took over the 30 s default: a hang still fails, a slow machine does not
export default qaVitestConfig({ testTimeoutMs: 120_000 })
