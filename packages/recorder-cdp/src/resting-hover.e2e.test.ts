import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Action, TestCase } from '@qa/model'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BrowserSession, openBrowser } from './browser/browser'
import { servePage } from '../test/serve-page'
import { replayWebCase } from './replay/replayer'

/**
 * Daily-loop bench, stisla's Bootstrap dropdown: picking a menu item closes the menu, and the button
 * behind it is now under the resting pointer. A person's browser drew it without its hover look until the pointer
 * moved; a replay's browser draws the hover at once. The verdict compares that button through a colour map of its
 * own (a hover recolours it), and still fails a step whose effect reshapes it.
 */

const BUTTON = { x: 40, y: 120, width: 200, height: 48 }
const ITEM = { x: 40, y: 110, width: 260, height: 60 }

/**
 * A dark button (#191d21, #000 under the pointer) with a menu over it; "Action" closes the menu. `?wrong`: the
 * item also renames the button (an effect the recording did not show).
 */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>menu</title><style>
  body { margin: 0; font: 20px sans-serif; background: #fff }
  #drop { position: absolute; left: ${BUTTON.x}px; top: ${BUTTON.y}px; width: ${BUTTON.width}px;
    height: ${BUTTON.height}px; background: #191d21; color: #fff; border: 0; border-radius: 4px; font: 20px sans-serif }
  #drop:hover { background: #000 }
  #menu { position: absolute; left: ${ITEM.x}px; top: ${ITEM.y}px; width: ${ITEM.width}px; background: #fff;
    box-shadow: 0 2px 8px #0004; display: none }
  #menu.open { display: block }
  #menu a { display: block; height: ${ITEM.height}px; line-height: ${ITEM.height}px; padding-left: 16px;
    color: #333; text-decoration: none }
  #status { position: absolute; left: 40px; top: 260px }
</style></head><body>
<button id="drop">Easy Dropdown</button>
<div id="menu" class="open"><a id="action" href="#">Action</a></div>
<div id="status">ready</div>
<script>
  document.getElementById('action').addEventListener('click', (e) => {
    e.preventDefault()
    document.getElementById('menu').classList.remove('open')
    document.getElementById('status').textContent = 'picked Action'
    if (location.search.includes('wrong')) document.getElementById('drop').textContent = 'Deleted'
  })
</script></body></html>`

let served: Awaited<ReturnType<typeof servePage>>
let base: string
let session: BrowserSession
let dir: string

beforeAll(async () => {
  served = await servePage(PAGE)
  base = served.base
  session = await openBrowser({ viewport: { width: 480, height: 320 } })
  dir = await mkdtemp(join(tmpdir(), 'qa-resting-hover-'))
  // The recording as a person's browser left it: before (menu open, pointer on the item) and after (menu closed,
  // the button under the pointer without its hover look, which only the next pointer move would draw).
  const p = await session.context.newPage()
  await p.goto(base)
  await p.mouse.move(470, 310)
  await writeFile(join(dir, 'before.png'), await p.screenshot())
  await p.evaluate(() => {
    document.getElementById('menu')?.classList.remove('open')
    const status = document.getElementById('status')
    if (status) status.textContent = 'picked Action'
  })
  await writeFile(join(dir, 'after.png'), await p.screenshot())
  await p.close()
}, 60_000)

afterAll(async () => {
  await session?.close()
  await served?.close()
})

const pick: Action = {
  timestamp: 1,
  actionType: 'click',
  x: 140,
  y: 140,
  description: 'Click link "Action"',
  screenshotBeforePath: 'before.png',
  screenshotPath: 'after.png',
  identity: {
    axRole: 'link',
    axName: 'Action',
    tagName: 'a',
    id: 'action',
    textContent: 'Action',
    boundingBox: ITEM,
  },
  selectors: { css: '#action' },
}

const caseOf = (): TestCase => ({ name: 'menu', version: '3.0', platform: 'web', startUrl: base, actions: [pick] })

async function replay(url: string) {
  const page: Page = await session.context.newPage()
  try {
    const outcome = await replayWebCase(caseOf(), { page, caseDir: dir, verify: true, url })
    return outcome.report.verificationResults[0]
  } finally {
    await page.close()
  }
}

describe('a control the step brought under the resting pointer (its hover look drawn or not)', () => {
  it('passes on the unchanged page: the button is compared through its own colour map', async () => {
    const v = await replay(base)
    expect(v?.reason).toMatch(/expected region matches/)
    expect(v?.finalResult).toBe('pass')
  }, 60_000)

  it('fails when the step reshaped that button (renamed it): a colour map explains no new text', async () => {
    const v = await replay(`${base}?wrong`)
    expect(v?.finalResult).toBe('fail')
  }, 60_000)
})
