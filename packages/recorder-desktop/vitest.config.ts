import { qaVitestConfig } from '../../vitest.shared'

// replays on real-size frames take seconds a test; on a loaded 2-core machine some unit tests took over the 30 s
// default: a hang still fails, a slow machine does not. Every end-to-end file drives real X input: one at a time.
export default qaVitestConfig({ testTimeoutMs: 150_000, serialE2e: ['src/**/*.e2e.test.ts'] })
