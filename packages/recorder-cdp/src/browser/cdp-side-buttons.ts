import type { KeyModifier } from '@qa/model'
import type { Page } from 'playwright-core'

/** CDP's modifier bit mask (`Input.dispatchMouseEvent`). */
const MODIFIER_BITS: Record<KeyModifier, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 }
const BUTTON_BITS = { back: 8, forward: 16 } as const

/**
 * Clicks a mouse's side button (back or forward) at a page point over CDP: Playwright's mouse has only left,
 * right and middle. The page sees mousedown/mouseup/auxclick with button 3 or 4, and the browser goes back or
 * forward in history unless the page prevents it, as with a real mouse.
 */
export async function clickSideButton(
  page: Page,
  x: number,
  y: number,
  button: 'back' | 'forward',
  modifiers: readonly KeyModifier[] = [],
): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  try {
    const mods = modifiers.reduce((bits, m) => bits | MODIFIER_BITS[m], 0)
    const at = { x, y, modifiers: mods }
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...at })
    await cdp.send('Input.dispatchMouseEvent', {
      type: 'mousePressed',
      ...at,
      button,
      buttons: BUTTON_BITS[button],
      clickCount: 1,
    })
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at, button, buttons: 0, clickCount: 1 })
  } finally {
    await cdp.detach().catch(() => undefined)
  }
}

/**
 * Applies DevTools network conditions to a page (`Network.emulateNetworkConditions`; -1 means no limit). The
 * CDP session stays open: Chrome drops a session's emulation when it detaches.
 */
export async function emulateNetworkConditions(
  page: Page,
  c: { offline: boolean; download: number; upload: number; latency: number },
): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: c.offline,
    latency: c.latency,
    downloadThroughput: c.download,
    uploadThroughput: c.upload,
  })
}
