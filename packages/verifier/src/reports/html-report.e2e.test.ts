/// <reference lib="dom" />
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { expect, test } from 'vitest'
import { threeStepRun } from '../__tests__/three-step-run'
import { renderHtmlReport } from './html-report'

test('the HTML report of a 3-step run with one failure shows the failed step’s diff image and reason in Chromium', async () => {
  const { dir, report } = await threeStepRun()
  const file = join(dir, 'report.html')
  writeFileSync(file, await renderHtmlReport(report, { baseDir: dir }))
  const browser = await chromium.launch({
    executablePath: process.env.QA_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  try {
    const page = await browser.newPage()
    const requests: string[] = []
    page.on('request', (r) => requests.push(r.url()))
    await page.goto(pathToFileURL(file).href)
    const failed = page.locator('section.step[data-verdict="fail"]')
    await expect(failed.count()).resolves.toBe(1)
    const diff = failed.locator('img.diff-image')
    const size = await diff.evaluate(async (img: HTMLImageElement) => {
      await img.decode()
      return { w: img.naturalWidth, h: img.naturalHeight, complete: img.complete }
    })
    expect(size).toEqual({ w: 320, h: 200, complete: true })
    await expect(failed.locator('.reason').textContent()).resolves.toContain('설정 화면 대신 오류 대화상자가 보입니다')
    await expect(failed.locator('h2').textContent()).resolves.toContain('설정 열기')
    await expect(page.locator('#summary').getAttribute('data-passed')).resolves.toBe('false')
    // Hangul must render with a real glyph: the heading's width differs from a run of the same count of tofu boxes
    const widths = await page.evaluate(() => {
      const probe = (t: string) => {
        const s = document.createElement('span')
        s.textContent = t
        document.body.append(s)
        const w = s.getBoundingClientRect().width
        s.remove()
        return w
      }
      return { hangul: probe('로그인'), tofu: probe('\u{10FFFD}\u{10FFFD}\u{10FFFD}') }
    })
    expect(widths.hangul).toBeGreaterThan(0)
    expect(widths.hangul).not.toBe(widths.tofu)
    expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([])
  } finally {
    await browser.close()
  }
})
