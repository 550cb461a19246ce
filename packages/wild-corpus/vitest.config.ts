import { qaVitestConfig } from '../../vitest.shared'

// recorded by hand with real X input (a person's pauses): one at a time, alone on the cores
export default qaVitestConfig({
  serialE2e: ['src/record-by-hand*.e2e.test.ts', 'src/assert-pick.e2e.test.ts', 'src/hostile-page.e2e.test.ts'],
})
