import { mergeConfig } from 'vitest/config'
import { qaVitestConfig } from '../../vitest.shared'

// clipanion's ES build imports a directory (`../platform`), which Node's loader refuses: the test runner bundles it
// instead, for the tests that run the CLI's `main` in their own process
export default mergeConfig(
  qaVitestConfig({
    // unit tests that record and replay through the CLI took up to 26 s a test while turbo built every package beside
    // them: a hang still fails at 120 s, a slow machine does not at 30
    testTimeoutMs: 120_000,
    // real X input, desktop programs and games, screens timed after a click: one at a time, alone on the cores
    serialE2e: [
      'src/commands/daily-loop-bench.e2e.test.ts',
      'src/commands/demo-desktop.e2e.test.ts',
      'src/commands/desktop-config-masks.e2e.test.ts',
      'src/commands/desktop-real-bench.e2e.test.ts',
      'src/commands/desktop-suites.e2e.test.ts',
      'src/commands/games-bench.e2e.test.ts',
      'src/commands/one-config.e2e.test.ts',
      'src/commands/record-desktop-hover.e2e.test.ts',
      'src/commands/replay-desktop.e2e.test.ts',
      'src/commands/route-parity.e2e.test.ts',
    ],
  }),
  { test: { server: { deps: { inline: ['clipanion'] } } } },
)
