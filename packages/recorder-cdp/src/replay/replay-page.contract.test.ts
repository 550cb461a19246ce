import sharp from 'sharp'
import { type FakeStepScript, fakeReplayPage } from './fake-replay-page'
import type { LocatedTarget } from './replay-page'
import { type ContractStep, describeReplayPage } from './testing/describe-replay-page'

// The ReplayPage contract against the scripted fake: each step's script plays what the contract page does (the
// real adapter runs the same contract over Chromium in replay-contracts.e2e.test.ts).

const png = async (background: string): Promise<Uint8Array> =>
  new Uint8Array(
    await sharp({ create: { width: 160, height: 100, channels: 3, background } })
      .png()
      .toBuffer(),
  )

const foundByRole = (box: { x: number; y: number; width: number; height: number }): LocatedTarget => ({
  status: 'found',
  strategy: 'role',
  confidence: 0.98,
  point: { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  element: { boundingBox: box, tagName: 'button' },
  coordinateFallback: false,
  attempts: [{ strategy: 'role', outcome: 'matched', candidates: 1 }],
})

const scripts = async (): Promise<Record<ContractStep, FakeStepScript>> => ({
  save: {
    method: 'role',
    located: foundByRole({ x: 20, y: 20, width: 120, height: 40 }),
    screen: await png('#eeeeee'),
  },
  warn: { method: 'role', located: foundByRole({ x: 160, y: 20, width: 120, height: 40 }), dialogOpens: true },
  load: { method: 'role', located: foundByRole({ x: 300, y: 20, width: 120, height: 40 }), requests: true },
  next: {
    method: 'role',
    located: foundByRole({ x: 20, y: 80, width: 34, height: 18 }),
    navigates: true,
    screen: await png('#dddddd'),
  },
  missing: { method: 'failed', fails: 'Element not found: button "Delete" (tried role+name: none)' },
  tab: {},
  crash: { crashes: 'the page crashed (its renderer process died)' },
})

describeReplayPage('fakeReplayPage', {
  async make({ steps, unreachable }) {
    const url = 'http://127.0.0.1:9/contract'
    const byStep = await scripts()
    const page = fakeReplayPage({
      screen: await png('#ffffff'),
      steps: steps.map((s) => byStep[s]),
      ...(unreachable ? { openFails: `Could not open ${url}: net::ERR_CONNECTION_REFUSED` } : {}),
    })
    return { page, url }
  },
})
