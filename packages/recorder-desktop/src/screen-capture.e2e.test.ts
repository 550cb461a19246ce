import { createRequire } from 'node:module'
import { describeScreenCapture } from './__tests__/describe-screen-capture'
import { closeNut, nutScreen } from './nut-desktop'
import { startXvfb } from './xvfb'

type XClient = {
  ChangeWindowAttributes(wid: number, values: { backgroundPixel: number }): void
  ClearArea(wid: number, x: number, y: number, width: number, height: number, exposures: number): void
  GetInputFocus(cb: (e: unknown) => void): void
  terminate(): void
}
type Connected = { client: XClient; screen: { root: number }[] }

/** An X client on the display: the root window painted one colour (its background, cleared), as a program would. */
async function rootPainter(display: string) {
  const x11 = createRequire(import.meta.url)('x11') as {
    createClient(o: { display: string }, cb: (err: unknown, d: Connected) => void): void
  }
  const d = await new Promise<Connected>((resolve, reject) =>
    x11.createClient({ display }, (err, c) => (err ? reject(err) : resolve(c))),
  )
  const root = d.screen[0]?.root ?? 0
  return {
    async fill([r, g, b]: readonly [number, number, number]) {
      d.client.ChangeWindowAttributes(root, { backgroundPixel: (r << 16) | (g << 8) | b })
      d.client.ClearArea(root, 0, 0, 0, 0, 0)
      await new Promise((done) => d.client.GetInputFocus(done)) // the server has drawn it
    },
    close: () => d.client.terminate(),
  }
}

// nut-js on a real X server (Xvfb, 24-bit TrueColor) keeps the contract the memory fake keeps (memory-screen.test.ts)
describeScreenCapture(
  'nut-js on Xvfb',
  async () => {
    const xvfb = await startXvfb({ width: 320, height: 200 })
    process.env.DISPLAY = xvfb.display // libnut's grab opens the process's DISPLAY
    const painter = await rootPainter(xvfb.display)
    return {
      screen: nutScreen(),
      fill: painter.fill,
      async close() {
        painter.close()
        await closeNut()
        await xvfb.stop()
      },
    }
  },
  { width: 320, height: 200 },
)
