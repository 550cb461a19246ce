import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { qaAsync } from '../__tests__/run-cli'

/**
 * The config file's ignore-masks reach the verification of `qa replay --verify`. A live
 * panel (a clock, a chart) covers a third of the screen and changes colour between recording and replay; the
 * step shows it, so it lies in the step's expected region (what the step changed is what is verified):
 * unmasked, the region's similarity falls under the 0.7 fallback (no vision provider) and the replay fails;
 * masked by `verify.masks` in qa.config.json, it passes.
 */
const PANEL = { x: 300, y: 200, width: 800, height: 420 }
let panelColour = '#1565c0'
const page = () => `<!doctype html><html><head><meta charset="utf-8"><title>live</title></head>
<body style="margin:0;background:#fff">
<button id="go" style="position:absolute;left:20px;top:20px;width:140px;height:40px" onclick="document.getElementById('panel').style.display='block'">Go</button>
<div id="panel" style="display:none;position:absolute;left:${PANEL.x}px;top:${PANEL.y}px;width:${PANEL.width}px;height:${PANEL.height}px;background:${panelColour}"></div>
</body></html>`

let server: Server
let url: string
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page()))
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(async () => {
  await new Promise((done) => server.close(done))
})

describe('config masks in qa replay --verify', () => {
  it('a masked region that changed does not fail the replay; the same change unmasked does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-masks-'))
    const script = join(dir, 'steps.json')
    writeFileSync(script, JSON.stringify([{ type: 'click', x: 90, y: 40 }]))
    const caseFile = join(dir, 'live.json')
    const env = { QA_VISION: 'none' }
    panelColour = '#1565c0'
    const rec = await qaAsync(['record', 'web', url, '--script', script, '--out', caseFile, '--viewport', '1280x720'], {
      env,
    })
    expect(rec.code, rec.stderr).toBe(0)

    panelColour = '#ef6c00'
    const plain = join(dir, 'plain.json')
    writeFileSync(plain, JSON.stringify({ verify: { masks: [] } }))
    const unmasked = await qaAsync(
      ['replay', caseFile, '--verify', '--json', '--config', plain, '--report-dir', join(dir, 'r1')],
      { env },
    )
    expect(unmasked.code, unmasked.stderr).toBe(1)
    expect(JSON.parse(unmasked.stdout).verification_results[0].final_result).toBe('fail')

    const masked = join(dir, 'masked.json')
    writeFileSync(masked, JSON.stringify({ verify: { masks: [PANEL] } }))
    const ok = await qaAsync(
      ['replay', caseFile, '--verify', '--json', '--config', masked, '--report-dir', join(dir, 'r2')],
      { env },
    )
    expect(ok.code, ok.stderr).toBe(0)
    const step = JSON.parse(ok.stdout).verification_results[0]
    expect(step.final_result).toBe('pass')
    expect(step.screenshot_similarity).toBe(1)
  })
})
