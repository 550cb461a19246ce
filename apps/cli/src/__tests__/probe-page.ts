import { chromium, type Locator, type Page } from 'playwright-core'

export type Point = { x: number; y: number }

/**
 * Where things are on a page, found as a person would (not by the code under test): opens `url` in a headless
 * Chromium at 1280×720, hands `find` the page and the rounded centre of a locator, and closes the browser.
 */
export async function findOnPage<T>(
  url: string,
  find: (page: Page, centre: (l: Locator) => Promise<Point>) => Promise<T>,
): Promise<T> {
  const browser = await chromium.launch({
    executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } })
    await page.goto(url)
    const centre = async (l: Locator) => {
      const b = (await l.boundingBox())!
      return { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) }
    }
    return await find(page, centre)
  } finally {
    await browser.close()
  }
}
