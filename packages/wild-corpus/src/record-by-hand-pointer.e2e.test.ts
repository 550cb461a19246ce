import { readFile, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeToolbarLayout } from './__tests__/hand-input'
import {
  dir,
  hand,
  probe,
  qa,
  restAt,
  sleep,
  startRecording,
  useHandSession,
  VIEWPORT,
} from './__tests__/by-hand-session'

useHandSession()

describe('hover menus, double and right clicks, drag and drop: recorded by hand and replayed (real X input)', () => {
  const PAGES: Record<string, string> = {
    // a CSS :hover dropdown and a menu a mouseenter listener opens; the items are hidden until the pointer rests
    // on their menu
    '/menu': `<!doctype html><html><head><title>Shop</title><style>
      body { margin: 0; font: 20px sans-serif }
      nav { display: flex; gap: 40px; padding: 0 40px; background: #eee; height: 60px }
      .menu { position: relative; width: 200px; height: 60px; line-height: 60px }
      .menu ul { position: absolute; top: 60px; left: 0; margin: 0; padding: 0; list-style: none; width: 200px;
        background: #fff; border: 1px solid #999 }
      .menu li a, .menu li button { display: block; width: 100%; height: 50px; line-height: 50px; font: inherit;
        border: 0; background: none; text-align: left; padding: 0 10px; box-sizing: border-box }
      #products ul { display: none }
      #products:hover ul { display: block }
      #buy { position: absolute; left: 40px; top: 220px; width: 200px; height: 60px; font: inherit }
    </style></head><body>
      <nav>
        <div class="menu" id="products"><a href="#" onclick="return false">Products</a>
          <ul><li><a href="#" onclick="log('laptops:' + event.isTrusted); return false">Laptops</a></li>
              <li><a href="#" onclick="log('phones:' + event.isTrusted); return false">Phones</a></li></ul></div>
        <div class="menu" id="account"><span>Account</span>
          <ul hidden><li><button type="button" onclick="log('profile:' + event.isTrusted)">Profile</button></li>
              <li><button type="button" onclick="log('signout:' + event.isTrusted)">Sign out</button></li></ul></div>
      </nav>
      <button id="buy" type="button" onclick="log('buy:' + event.isTrusted)">Buy now</button>
      <script>
        const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
        const account = document.getElementById('account')
        account.addEventListener('mouseenter', () => { account.querySelector('ul').hidden = false })
        account.addEventListener('mouseleave', () => { account.querySelector('ul').hidden = true })
      </script></body></html>`,
    // what a cart shows (its count from the URL, so that a variant can make an assertion false)
    '/cart': `<!doctype html><html><head><title>Cart</title><style>
      body { margin: 0; font: 20px sans-serif }
      #count { position: absolute; left: 100px; top: 100px; width: 300px; height: 60px; margin: 0; font-size: 32px }
      #coupon { position: absolute; left: 100px; top: 220px; width: 300px; height: 50px; font: inherit }
      #checkout { position: absolute; left: 100px; top: 320px; width: 300px; height: 60px; font: inherit }
    </style></head><body>
      <h2 id="count" onclick="log('count-clicked')">3 items in your cart</h2>
      <input id="coupon" aria-label="Coupon" value="SPRING-25" onpointerdown="log('coupon-pressed')">
      <button id="checkout" type="button" onclick="log('checkout:' + event.isTrusted)">Checkout</button>
      <script>
        const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
        const n = new URLSearchParams(location.search).get('n')
        if (n) document.getElementById('count').textContent = n + ' items in your cart'
        // every key the page hears (typing into the recorder's toolbar must never reach it)
        addEventListener('keydown', (e) => log('key:' + e.key))
      </script></body></html>`,
    // a box that answers double clicks, one with its own context menu, and a card dragged into a column
    '/gestures': `<!doctype html><html><head><title>Board</title><style>
      body { margin: 0; font: 20px sans-serif }
      .box { position: absolute; width: 220px; height: 80px; line-height: 80px; text-align: center;
        background: #dde; user-select: none }
      .column { position: absolute; top: 300px; width: 260px; height: 300px; border: 2px dashed #999 }
      #card { position: absolute; left: 60px; top: 360px; width: 180px; height: 60px; line-height: 60px;
        background: #fc6; text-align: center; user-select: none; touch-action: none; z-index: 2 }
    </style></head><body>
      <div class="box" id="rename" role="button" aria-label="Rename" style="left:60px;top:60px">Rename</div>
      <div class="box" id="options" role="button" aria-label="Options" style="left:360px;top:60px">Options</div>
      <div class="column" id="todo" role="region" aria-label="To do" style="left:40px"></div>
      <div class="column" id="done" role="region" aria-label="Done" style="left:500px"></div>
      <div id="card" role="listitem" aria-label="Write report">Write report</div>
      <script>
        const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
        document.getElementById('rename').addEventListener('dblclick', (e) => log('dblclick:' + e.isTrusted))
        document.getElementById('rename').addEventListener('click', () => log('click'))
        document.getElementById('options').addEventListener('contextmenu', (e) => {
          e.preventDefault()
          log('contextmenu:' + e.isTrusted)
        })
        // a variant with the two columns swapped: a drop by coordinates would land in "To do"
        if (location.search.includes('swap')) {
          document.getElementById('todo').style.left = '500px'
          document.getElementById('done').style.left = '40px'
          document.getElementById('card').style.left = '520px'
        }
        // a drag made of pointer events, as sortable lists and boards do it
        const card = document.getElementById('card')
        let grab = null
        card.addEventListener('pointerdown', (e) => {
          grab = { dx: e.clientX - card.offsetLeft, dy: e.clientY - card.offsetTop }
          card.setPointerCapture(e.pointerId)
        })
        card.addEventListener('pointermove', (e) => {
          if (!grab) return
          card.style.left = e.clientX - grab.dx + 'px'
          card.style.top = e.clientY - grab.dy + 'px'
        })
        card.addEventListener('pointerup', (e) => {
          if (!grab) return
          grab = null
          card.style.visibility = 'hidden'
          const under = document.elementFromPoint(e.clientX, e.clientY)
          card.style.visibility = ''
          const column = under && under.closest('.column')
          log('dropped:' + (column ? column.id : 'nowhere') + ':' + e.isTrusted)
        })
      </script></body></html>`,
    // HTML5 drag and drop (draggable=true: dragstart, dragover, drop, dragend) and a paragraph to select text in
    '/dnd': `<!doctype html><html><head><title>Fruit</title><style>
      body { margin: 0; font: 20px sans-serif }
      .fruit { position: absolute; left: 60px; width: 160px; height: 50px; line-height: 50px; text-align: center;
        background: #cfc; cursor: grab }
      .zone { position: absolute; top: 60px; width: 240px; height: 200px; border: 2px dashed #999 }
      #story { position: absolute; left: 60px; top: 400px; width: 700px; margin: 0; line-height: 30px }
    </style></head><body>
      <div class="fruit" id="apple" draggable="true" style="top:60px">Apple</div>
      <div class="fruit" id="pear" draggable="true" style="top:140px">Pear</div>
      <div class="zone" id="basket" role="region" aria-label="Basket" style="left:320px"></div>
      <div class="zone" id="bin" role="region" aria-label="Bin" style="left:620px"></div>
      <p id="story">The quick brown fox jumps over the lazy dog while the recorder watches every move it makes.</p>
      <script>
        const log = (e) => fetch('/log?e=' + encodeURIComponent(e))
        // a variant with the two zones swapped: a drop by coordinates would land in the bin
        if (location.search.includes('swap')) {
          document.getElementById('basket').style.left = '620px'
          document.getElementById('bin').style.left = '320px'
        }
        for (const fruit of document.querySelectorAll('.fruit'))
          fruit.addEventListener('dragstart', (e) => {
            e.dataTransfer.setData('text/plain', fruit.id)
            e.dataTransfer.effectAllowed = 'move'
            log('dragstart:' + fruit.id + ':' + e.isTrusted)
          })
        for (const zone of document.querySelectorAll('.zone')) {
          zone.addEventListener('dragover', (e) => e.preventDefault())
          zone.addEventListener('drop', (e) => {
            e.preventDefault()
            log('drop:' + e.dataTransfer.getData('text/plain') + ':' + zone.id + ':' + e.isTrusted)
          })
        }
        document.getElementById('story').addEventListener('click', () =>
          log('story-click:' + getSelection().toString().trim()),
        )
      </script></body></html>`,
    // the hover menus inside an iframe of the same origin; `other` (set per request) puts them in a frame of
    // another site too (localhost against 127.0.0.1: an out-of-process frame)
    '/framed': `<!doctype html><html><head><title>Framed shop</title><style>
      body { margin: 0 } iframe { position: absolute; top: 100px; width: 600px; height: 400px; border: 0 }
    </style></head><body><iframe id="same" src="/menu" style="left:0"></iframe><script>
      if (location.search.includes('other')) {
        const other = document.createElement('iframe')
        other.id = 'other'
        other.src = 'http://localhost:' + location.port + '/menu'
        other.style.left = '640px'
        document.body.append(other)
      }
    </script></body></html>`,
  }
  let server: Server
  let url: string
  let seen: string[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x')
      if (u.pathname === '/log') {
        seen.push(u.searchParams.get('e') ?? '')
        res.end('ok')
        return
      }
      res.writeHead(PAGES[u.pathname] ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
      res.end(PAGES[u.pathname] ?? 'not found')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((r) => server?.close(r))
  })

  interface GestureCase {
    actions: {
      action_type: string
      description: string
      identity?: { ax_name?: string; text_content?: string; id?: string }
      drop_identity?: { ax_name?: string }
      end_x?: number
      end_y?: number
    }[]
  }

  it('a CSS :hover dropdown and a mouseenter menu: the hover that showed each item is a step, and replays before its click', async () => {
    const file = join(dir, 'hover-menus.json')
    seen = []
    const rec = await startRecording(`${url}/menu`, file)
    // a click on a button that was visible all along: no hover step
    await hand.clickAt({ x: 140, y: 250 })
    // Products (40..240 × 0..60) → its dropdown opens below it → Phones (second item, 60+50..60+100)
    await restAt({ x: 120, y: 30 })
    await restAt({ x: 120, y: 135 }, 300)
    await hand.clickAt({ x: 120, y: 135 })
    await restAt({ x: 400, y: 300 }, 300)
    // Account (280..480) → its listener shows the list → Sign out
    await restAt({ x: 360, y: 30 })
    await restAt({ x: 360, y: 135 }, 300)
    await hand.clickAt({ x: 360, y: 135 })
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(seen).toEqual(['buy:true', 'phones:true', 'signout:true'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as GestureCase
    // the hover is on the menu the pointer entered first on its way: its label, or its box (the way the pointer
    // came decides which, and hovering either opens the menu)
    const menu = (a: GestureCase['actions'][number]) =>
      a.action_type === 'hover' && a.identity?.id
        ? `#${a.identity.id}`
        : (a.identity?.ax_name ?? a.identity?.text_content)
    expect(saved.actions.map((a) => [a.action_type, menu(a)])).toEqual([
      ['click', 'Buy now'],
      ['hover', expect.stringMatching(/^(Products|#products)$/)],
      ['click', 'Phones'],
      ['hover', expect.stringMatching(/^(Account|#account)$/)],
      ['click', 'Sign out'],
    ])
    expect(rec.stdout()).toMatch(/ {2}2\. Hover over /)
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/menu`, '--json', '--report-dir', 'reports-hover'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen).toEqual(['buy:true', 'phones:true', 'signout:true'])
    // without its hover step the item cannot be clicked: the replay says so instead of clicking something else
    const noHover = { ...JSON.parse(await readFile(file, 'utf8')) }
    noHover.actions = noHover.actions.filter((a: { action_type: string }) => a.action_type !== 'hover')
    const bare = join(dir, 'hover-menus-no-hover.json')
    await writeFile(bare, JSON.stringify(noHover))
    seen = []
    const failed = await qa(['replay', bare, '--url', `${url}/menu`, '--json', '--report-dir', 'reports-no-hover'])
    expect(failed.code, failed.stdout + failed.stderr).toBe(1)
    await sleep(300)
    expect(seen).toEqual(['buy:true'])
  })

  /**
   * A hover menu in an iframe recorded by hand (Products → an item, then Account → an item; `origin`: where the
   * frame's (0, 0) is in the page, `itemY`: how far down in the frame the item is), replayed: each hover is a step
   * in that frame (`framePath`) before its click.
   */
  const hoverMenuInFrame = async (opts: {
    name: string
    path: string
    origin: { x: number; y: number }
    itemY: number
    items: [string, string]
    /** What the page logs for the two clicks. */
    logged: [string, string]
    framePath: string[]
  }) => {
    const file = join(dir, `${opts.name}.json`)
    seen = []
    const rec = await startRecording(`${url}${opts.path}`, file)
    const { x, y } = opts.origin
    await restAt({ x: x + 120, y: y + 30 })
    await restAt({ x: x + 120, y: y + opts.itemY }, 300)
    await hand.clickAt({ x: x + 120, y: y + opts.itemY })
    await restAt({ x: x + 360, y: y + 400 }, 300)
    await restAt({ x: x + 360, y: y + 30 })
    await restAt({ x: x + 360, y: y + opts.itemY }, 300)
    await hand.clickAt({ x: x + 360, y: y + opts.itemY })
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(seen).toEqual(opts.logged)
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: (GestureCase['actions'][number] & { identity?: { frame_path?: string[] } })[]
    }
    const menu = (a: GestureCase['actions'][number]) =>
      a.action_type === 'hover' && a.identity?.id
        ? `#${a.identity.id}`
        : (a.identity?.ax_name ?? a.identity?.text_content)
    expect(saved.actions.map((a) => [a.action_type, menu(a), a.identity?.frame_path])).toEqual([
      ['hover', expect.stringMatching(/^(Products|#products)$/), opts.framePath],
      ['click', opts.items[0], opts.framePath],
      ['hover', expect.stringMatching(/^(Account|#account)$/), opts.framePath],
      ['click', opts.items[1], opts.framePath],
    ])
    seen = []
    const r = await qa([
      'replay',
      file,
      '--url',
      `${url}${opts.path}`,
      '--json',
      '--report-dir',
      `reports-${opts.name}`,
    ])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen).toEqual(opts.logged)
  }

  it('a hover menu inside a same-origin iframe: the hover is a step in that frame, and replays before its click', async () => {
    // the frame's (0, 0) is the page's (0, 100): Products → Phones, then Account → Sign out
    await hoverMenuInFrame({
      name: 'framed-menu',
      path: '/framed',
      origin: { x: 0, y: 100 },
      itemY: 135,
      items: ['Phones', 'Sign out'],
      logged: ['phones:true', 'signout:true'],
      framePath: ['#same'],
    })
  })

  it('a hover menu inside a cross-origin (out-of-process) iframe: the hover is a step in that frame, and replays', async () => {
    // the other site's frame: its (0, 0) is the page's (640, 100); Products → Laptops, then Account → Profile
    await hoverMenuInFrame({
      name: 'framed-other-menu',
      path: '/framed?other',
      origin: { x: 640, y: 100 },
      itemY: 85,
      items: ['Laptops', 'Profile'],
      logged: ['laptops:true', 'profile:true'],
      framePath: ['#other'],
    })
  })

  it('assertions picked with the toolbar: text and value edited in its field (typed), Escape cancels, visible; replayed', async () => {
    // where the toolbar's buttons are: the same toolbar, in a probe page of the same size (its shadow root opened),
    // first as it starts, then with its editor open (a text pick: Assert text, a click on the page, the editor)
    const probePage = await probe.newPage({ viewport: VIEWPORT })
    const { buttons, editor } = await probeToolbarLayout(probePage, '3 items in your cart')
    expect(Object.keys(buttons)).toEqual(['Assert visible', 'Assert text', 'Assert value', 'Stop'])
    await probePage.close()
    expect(Object.keys(editor)).toEqual(['equals', 'contains', 'Add', 'Cancel', 'Stop'])

    const file = join(dir, 'cart-asserts.json')
    seen = []
    const rec = await startRecording(`${url}/cart`, file)
    // assert text: the field shows "3 items in your cart", selected; the person types over it, picks "contains"
    // and adds it with Enter
    await hand.clickAt(buttons['Assert text']!)
    await hand.clickAt({ x: 250, y: 130 })
    await sleep(1000)
    await hand.typeText('3 items')
    await hand.clickAt(editor.contains!)
    await hand.pressKey('Return')
    // assert value: the coupon's value as it is, added with the Add button
    await hand.clickAt(buttons['Assert value']!)
    await hand.clickAt({ x: 250, y: 245 })
    await sleep(1000)
    await hand.clickAt(editor.Add!)
    // a text pick cancelled with Escape in its editor, then an assert mode cancelled with Escape: nothing recorded
    await hand.clickAt(buttons['Assert text']!)
    await hand.clickAt({ x: 250, y: 350 })
    await sleep(1000)
    await hand.typeText('never')
    await hand.pressKey('Escape')
    await hand.clickAt(buttons['Assert value']!)
    await hand.pressKey('Escape')
    await hand.clickAt(buttons['Assert visible']!)
    await hand.clickAt({ x: 250, y: 350 })
    // and a real click on the button, which the page sees
    await hand.clickAt({ x: 250, y: 350 })
    await hand.clickAt(buttons.Stop!)
    expect(await rec.exited, rec.stderr()).toBe(0)
    expect(rec.stdout()).toMatch(/Stopped: the Stop button of the recorder toolbar was clicked/)
    // the page saw only the last click: the picks, the typing into the toolbar and both Escapes never reached it
    expect(seen).toEqual(['checkout:true'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as {
      actions: {
        action_type: string
        assertion?: { kind: string; op?: string; expected?: string }
        identity?: { ax_name?: string }
        screenshot_path?: string
      }[]
    }
    expect(saved.actions.map((a) => [a.action_type, a.assertion ?? null, a.identity?.ax_name])).toEqual([
      ['assert', { kind: 'text', op: 'contains', expected: '3 items' }, '3 items in your cart'],
      ['assert', { kind: 'value', expected: 'SPRING-25' }, 'Coupon'],
      ['assert', { kind: 'visible' }, 'Checkout'],
      ['click', null, 'Checkout'],
    ])
    expect(rec.stdout()).toMatch(/ {2}1\. Assert .*contains "3 items"/)
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/cart`, '--json', '--report-dir', 'reports-cart'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen).toEqual(['checkout:true'])
    // on a cart that shows 4 items the text assertion fails, with what was expected and what was there
    const changed = await qa(['replay', file, '--url', `${url}/cart?n=4`, '--json', '--report-dir', 'reports-cart-4'])
    expect(changed.code, changed.stdout + changed.stderr).toBe(1)
    const report = JSON.parse(changed.stdout) as {
      verification_results: { final_result: string; reason: string }[]
    }
    expect(report.verification_results[0]?.final_result).toBe('fail')
    expect(report.verification_results[0]?.reason).toMatch(/expected .*3 items.*actual .*4 items/)
  })

  it('a double click, a right click and a drag of a card into another column: one step each, replayed', async () => {
    const file = join(dir, 'gestures.json')
    seen = []
    const rec = await startRecording(`${url}/gestures`, file)
    await restAt({ x: 170, y: 100 }, 200)
    await hand.xdo('click', '--repeat', '2', '--delay', '90', '1')
    await sleep(800)
    await restAt({ x: 470, y: 100 }, 200)
    await hand.xdo('click', '3')
    await sleep(800)
    // the card's centre (150, 390) into the "Done" column (500..760 × 300..600)
    await restAt({ x: 150, y: 390 }, 200)
    await hand.xdo('mousedown', '1')
    await sleep(150)
    for (const f of [0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
      await hand.xdo(
        'mousemove',
        '--sync',
        String(Math.round(hand.origin.x + 150 + 480 * f)),
        String(Math.round(hand.origin.y + 390 + 60 * f)),
      )
      await sleep(60)
    }
    await hand.xdo('mouseup', '1')
    await sleep(1000)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    // (sorted: the page's reports are requests, which may arrive out of order)
    expect([...seen].sort()).toEqual(['click', 'click', 'contextmenu:true', 'dblclick:true', 'dropped:done:true'])
    const saved = JSON.parse(await readFile(file, 'utf8')) as GestureCase
    expect(saved.actions.map((a) => [a.action_type, a.identity?.ax_name])).toEqual([
      ['double_click', 'Rename'],
      ['right_click', 'Options'],
      ['drag', 'Write report'],
    ])
    const drag = saved.actions[2]!
    expect(drag.drop_identity?.ax_name).toBe('Done')
    expect(drag.description).toMatch(/^Drag .*"Write report" to region "Done"$/)
    expect(Math.abs((drag.end_x ?? 0) - 630)).toBeLessThan(4)
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/gestures`, '--json', '--report-dir', 'reports-gestures'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    // (sorted: the page's reports are requests, which may arrive out of order)
    expect([...seen].sort()).toEqual(['click', 'click', 'contextmenu:true', 'dblclick:true', 'dropped:done:true'])
    // the columns swapped places (and the card moved with its column): the card still goes to "Done"
    seen = []
    const swapped = await qa([
      'replay',
      file,
      '--url',
      `${url}/gestures?swap`,
      '--json',
      '--report-dir',
      'reports-swap',
    ])
    expect(swapped.code, swapped.stdout + swapped.stderr).toBe(0)
    await sleep(300)
    expect(seen.filter((e) => e.startsWith('dropped'))).toEqual(['dropped:done:true'])
  })

  it('an HTML5 drag and drop (draggable, drop listeners) is a drag step; a text selection by mouse is not', async () => {
    const file = join(dir, 'dnd.json')
    seen = []
    const rec = await startRecording(`${url}/dnd`, file)
    // select "quick brown fox" with the mouse: press on the text, move across it, release on the text
    await restAt({ x: 110, y: 415 }, 200)
    await hand.xdo('mousedown', '1')
    await sleep(150)
    for (const f of [0.25, 0.5, 0.75, 1])
      await hand.xdo(
        'mousemove',
        '--sync',
        String(Math.round(hand.origin.x + 110 + 150 * f)),
        String(Math.round(hand.origin.y + 415)),
      )
    await sleep(100)
    await hand.xdo('mouseup', '1')
    await sleep(1000)
    // drag the pear (60..220 × 140..190) into the basket (320..560 × 60..260) with the browser's own drag and drop
    await restAt({ x: 140, y: 165 }, 200)
    await hand.xdo('mousedown', '1')
    await sleep(150)
    for (const f of [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 0.95, 1]) {
      await hand.xdo(
        'mousemove',
        '--sync',
        String(Math.round(hand.origin.x + 140 + 300 * f)),
        String(Math.round(hand.origin.y + 165 - 5 * f)),
      )
      await sleep(80)
    }
    await sleep(200)
    await hand.xdo('mouseup', '1')
    await sleep(1200)
    rec.interrupt()
    expect(await rec.exited, rec.stderr()).toBe(0)
    // the page's own listeners: text was selected (the click after it saw the selection), the pear was dropped in
    // the basket by a real drag
    // (the selection's ends depend on the font: some letters of "quick brown fox")
    expect([...seen].sort()).toEqual([
      'dragstart:pear:true',
      'drop:pear:basket:true',
      expect.stringMatching(/^story-click:\S* brown \S+$/),
    ])
    const saved = JSON.parse(await readFile(file, 'utf8')) as GestureCase
    expect(saved.actions.map((a) => a.action_type)).toEqual(['click', 'drag'])
    const drag = saved.actions[1]!
    expect(drag.identity?.id).toBe('pear')
    expect(drag.drop_identity?.ax_name).toBe('Basket')
    seen = []
    const r = await qa(['replay', file, '--url', `${url}/dnd`, '--json', '--report-dir', 'reports-dnd'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    await sleep(300)
    expect(seen.filter((e) => !e.startsWith('story-click'))).toEqual(['dragstart:pear:true', 'drop:pear:basket:true'])
    // the zones swapped places: the pear still goes into the basket
    seen = []
    const swapped = await qa(['replay', file, '--url', `${url}/dnd?swap`, '--json', '--report-dir', 'reports-dnd-swap'])
    expect(swapped.code, swapped.stdout + swapped.stderr).toBe(0)
    await sleep(300)
    expect(seen.filter((e) => e.startsWith('drop'))).toEqual(['drop:pear:basket:true'])
  })
})

/**
 * Where the recorder toolbar's buttons are in a viewport of `VIEWPORT`'s size: the same toolbar in a probe page (its
 * shadow root opened), as it starts and with its editor open (Assert text, a click on the page, the editor).
 */
