import { writeFileAtomic } from '@qa/model/node'
import type { Locator, Page } from 'playwright-core'
import sharp from 'sharp'
import { TOOLBAR_SCREENSHOT_STYLE } from '../injected/recorder-toolbar'
import { secretFieldsOf, type ViewportBox } from './cdp-secret-fields'

/** The boxes (top-level viewport CSS pixels) of every password field in every frame, to paint over. */
export async function passwordBoxes(page: Page): Promise<ViewportBox[]> {
  const boxes = await Promise.all(
    passwordMasks(page).map(async (l) =>
      Promise.all((await l.all().catch(() => [])).map((f) => f.boundingBox({ timeout: 500 }).catch(() => null))),
    ),
  ).catch(() => [])
  return boxes.flat().filter((b): b is ViewportBox => b !== null)
}

/** Locators of every password field in every frame, to paint over in screenshots. */
export function passwordMasks(page: Page): Locator[] {
  return page
    .frames()
    .filter((f) => !f.isDetached())
    .map((f) => f.locator('input[type="password" i]'))
}

/** The colour secrets are painted over in, in every recorded screenshot. */
export const MASK_COLOR = '#7f7f7f'

/** Paints boxes (viewport CSS pixels) over a screenshot of a viewport `cssWidth` wide, in the mask colour. */
async function paintOver(png: Buffer, boxes: readonly ViewportBox[], cssWidth: number | null): Promise<Buffer> {
  if (boxes.length === 0) return png
  const { width = 0, height = 0 } = await sharp(png).metadata()
  const scale = cssWidth ? width / cssWidth : 1
  const layers = boxes.flatMap((b) => {
    const left = Math.max(0, Math.floor(b.x * scale))
    const top = Math.max(0, Math.floor(b.y * scale))
    const right = Math.min(width, Math.ceil((b.x + b.width) * scale))
    const bottom = Math.min(height, Math.ceil((b.y + b.height) * scale))
    if (right <= left || bottom <= top) return []
    const create = { width: right - left, height: bottom - top, channels: 3 as const, background: MASK_COLOR }
    return [{ input: { create }, left, top }]
  })
  if (layers.length === 0) return png
  return sharp(png).composite(layers).png().toBuffer()
}

/**
 * A screenshot with secrets painted over: password fields of every frame (cross-origin ones too) and every
 * shadow root (closed ones too), and every field a secret was typed into, whatever its type became since
 * (a "show password" toggle). Retried once when a frame went away meanwhile.
 */
export async function maskedScreenshot(page: Page, path?: string): Promise<Buffer> {
  const fields = secretFieldsOf(page)
  const take = async () => {
    const before = await fields.boxes()
    const shot = await page.screenshot({
      animations: 'disabled',
      caret: 'hide',
      mask: passwordMasks(page),
      maskColor: MASK_COLOR,
      style: TOOLBAR_SCREENSHOT_STYLE,
    })
    // the boxes before and after the capture: a field that moved meanwhile is covered where it was and is
    const after = await fields.boxes()
    // a person's own browser (--cdp) has no emulated viewport: its window's width gives the scale of a HiDPI shot
    const cssWidth =
      page.viewportSize()?.width ?? (await page.evaluate(() => window.innerWidth).catch((): number | null => null))
    const png = await paintOver(shot, [...before, ...after], cssWidth)
    // atomic: a recording killed or out of disk space leaves no truncated PNG
    if (path) await writeFileAtomic(path, png, { overwrite: true })
    return png
  }
  try {
    return await take()
  } catch (error) {
    if (!/detached|Target closed|navigat|No node|context was destroyed/i.test(String(error))) throw error
    await page.waitForLoadState('load').catch(() => undefined)
    return take()
  }
}
