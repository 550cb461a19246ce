import { mkdtemp } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { type BrowserSession, openBrowser } from '../browser/browser'
import { playwrightCandidateSource } from './candidate-source'
import { playwrightReplayPage } from './playwright-replay-page'
import { CANDIDATE_PAGE, describeCandidateSource } from './testing/describe-candidate-source'
import { CONTRACT_NEXT_PAGE, CONTRACT_PAGE, describeReplayPage } from './testing/describe-replay-page'
import { planUrls } from './url-plan'

// The ReplayPage and CandidateSource contracts against the real adapters: Playwright over Chromium, on pages served
// here (the fakes run the same contracts in replay-page.contract.test.ts and candidate-source.contract.test.ts).

let server: Server
let origin: string
/** A port nothing listens on: a server opened and closed again. */
let closedPort: number
let session: BrowserSession
let caseDir: string

beforeAll(async () => {
  server = createServer((req, res) => {
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body)
    if (req.url === '/next') html(CONTRACT_NEXT_PAGE)
    else if (req.url === '/candidates') html(CANDIDATE_PAGE)
    else if (req.url === '/data') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    else html(CONTRACT_PAGE)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const spare = createServer()
  await new Promise<void>((done) => spare.listen(0, '127.0.0.1', done))
  closedPort = (spare.address() as AddressInfo).port
  await new Promise((done) => spare.close(done))
  session = await openBrowser({ headless: true })
  caseDir = await mkdtemp(join(tmpdir(), 'qa-replay-contract-'))
})
afterAll(async () => {
  await session?.close()
  await new Promise((done) => server.close(done))
})

describeCandidateSource('playwrightCandidateSource (Chromium)', {
  async make() {
    const page = await session.context.newPage()
    await page.goto(`${origin}/candidates`)
    return playwrightCandidateSource(page)
  },
})

describeReplayPage('playwrightReplayPage (Chromium)', {
  async make({ unreachable }) {
    const url = unreachable ? `http://127.0.0.1:${closedPort}/` : `${origin}/`
    // each scenario in a context of its own: the one whose renderer crashes takes nothing else with it
    const context = await session.browser.newContext({ viewport: { width: 640, height: 400 } })
    const page = await context.newPage()
    return {
      // the default action timeout: a click that navigates or opens an alert is done when Playwright says so
      page: playwrightReplayPage({ page, caseDir, urls: planUrls({ recordedStart: url }) }),
      url,
    }
  },
})
