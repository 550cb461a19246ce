import { describeScreenCapture } from './__tests__/describe-screen-capture'
import { memoryScreen } from './memory-screen'

// the fake screen keeps the contract nut-js keeps on a real X server (screen-capture.e2e.test.ts)
describeScreenCapture(
  'memory fake',
  async () => {
    const frameOf = (rgb: readonly [number, number, number]) => {
      const data = new Uint8Array(320 * 200 * 4)
      for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i)
      return { width: 320, height: 200, data, channels: 4 as const }
    }
    const screen = memoryScreen(frameOf([0, 0, 0]))
    return { screen, fill: async (rgb) => screen.set(frameOf(rgb)) }
  },
  { width: 320, height: 200 },
)
