import { qaVitestConfig } from '../../vitest.shared'

// replays on real-size frames take seconds a test; on a loaded 2-core machine some unit tests took over the 30 s
// default: a hang still fails, a slow machine does not
export default qaVitestConfig({ testTimeoutMs: 150_000 })
