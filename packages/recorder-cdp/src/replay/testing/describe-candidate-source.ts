import type { CandidateElement, CandidateSource } from '@qa/matcher'
import { afterAll, describe, expect, test } from 'vitest'

/**
 * The page every `CandidateSource` of the contract looks in. An adapter over a real browser loads it; an in-memory
 * one is given these elements by hand: five controls (one "Save" button, a search field, a "Help" link, two
 * "Open" buttons) and a paragraph that is text, not a control.
 */
export const CANDIDATE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>candidates</title></head>
<body style="margin:0;font:16px sans-serif">
  <button id="save" class="primary" data-testid="save-button" style="position:absolute;left:20px;top:20px;width:120px;height:40px">Save</button>
  <input id="q" name="q" type="text" placeholder="Search" aria-label="Search the site" style="position:absolute;left:160px;top:20px;width:200px;height:30px">
  <a id="help" href="/help" style="position:absolute;left:20px;top:80px">Help</a>
  <button id="open1" style="position:absolute;left:20px;top:120px;width:120px;height:40px">Open</button>
  <button id="open2" style="position:absolute;left:160px;top:120px;width:120px;height:40px">Open</button>
  <p id="note" style="position:absolute;left:20px;top:180px;margin:0">Just text</p>
</body></html>`

/** How the contract gets its source: one over `CANDIDATE_PAGE`, as loaded. */
export interface CandidateSourceHarness {
  make(): Promise<CandidateSource>
  /** Called once after the suite (close the browser). */
  cleanup?: () => Promise<void> | void
}

const ids = (found: readonly CandidateElement[]) => found.map((e) => e.id).sort()

/**
 * The shared contract every `CandidateSource` passes (the matcher's `memoryCandidateSource`, the Playwright
 * `playwrightCandidateSource` over real Chromium): every lookup is exact and returns every element that matches,
 * with its attributes and box, and none that does not; the engine decides what to do with zero, one or many.
 */
export function describeCandidateSource(label: string, harness: CandidateSourceHarness): void {
  describe(`CandidateSource contract: ${label}`, () => {
    let source: CandidateSource | undefined
    const get = async () => {
      source ??= await harness.make()
      return source
    }
    afterAll(async () => {
      await harness.cleanup?.()
    })

    test('byRole finds the element of that role and exactly that name, with its attributes and box', async () => {
      const found = await (await get()).byRole('button', 'Save')
      expect(found).toHaveLength(1)
      const save = found[0] as CandidateElement
      expect(save.id).toBe('save')
      expect(save.axRole).toBe('button')
      expect(save.axName).toBe('Save')
      expect(save.tagName?.toLowerCase()).toBe('button')
      expect(save.classNames).toContain('primary')
      expect(save.dataTestId).toBe('save-button')
      expect(save.boundingBox?.width).toBeGreaterThan(0)
      expect(save.boundingBox?.height).toBeGreaterThan(0)
    })

    test('byRole returns every element with the name, and none for a part of it, more than it, or another role', async () => {
      const s = await get()
      expect(ids(await s.byRole('button', 'Open'))).toEqual(['open1', 'open2'])
      expect(await s.byRole('button', 'Sav')).toEqual([])
      expect(await s.byRole('button', 'Save all')).toEqual([])
      expect(await s.byRole('link', 'Save')).toEqual([])
      expect(ids(await s.byRole('textbox', 'Search the site'))).toEqual(['q'])
      expect(ids(await s.byRole('link', 'Help'))).toEqual(['help'])
    })

    test('byRole ignores spaces around the name', async () => {
      expect(ids(await (await get()).byRole('button', '  Save '))).toEqual(['save'])
    })

    test('byAttribute finds by the exact value, and by tag name when given', async () => {
      const s = await get()
      expect(ids(await s.byAttribute('id', 'q'))).toEqual(['q'])
      expect(ids(await s.byAttribute('name', 'q', 'input'))).toEqual(['q'])
      expect(await s.byAttribute('name', 'q', 'textarea')).toEqual([])
      expect(ids(await s.byAttribute('placeholder', 'Search'))).toEqual(['q'])
      expect(ids(await s.byAttribute('aria-label', 'Search the site'))).toEqual(['q'])
      expect(ids(await s.byAttribute('data-testid', 'save-button'))).toEqual(['save'])
      expect(await s.byAttribute('placeholder', 'Sear')).toEqual([])
      expect(await s.byAttribute('id', 'nothing')).toEqual([])
    })

    test('bySelector evaluates a CSS selector', async () => {
      const s = await get()
      expect(ids(await s.bySelector('button.primary', 'css'))).toEqual(['save'])
      expect(ids(await s.bySelector('#q', 'css'))).toEqual(['q'])
      expect(ids(await s.bySelector('button', 'css'))).toEqual(['open1', 'open2', 'save'])
      expect(await s.bySelector('button.secondary', 'css')).toEqual([])
    })

    test('bySelector finds an element by the XPath it is listed with', async () => {
      const s = await get()
      const help = (await s.listCandidates()).find((e) => e.id === 'help')
      expect(help?.xpath).toBeTruthy()
      expect(ids(await s.bySelector(help?.xpath as string, 'xpath'))).toEqual(['help'])
    })

    test('byText finds the element whose whole text it is, control or not', async () => {
      const s = await get()
      expect(ids(await s.byText('Help'))).toEqual(['help'])
      expect(ids(await s.byText('Just text'))).toEqual(['note'])
      expect(await s.byText('Hel')).toEqual([])
      expect(await s.byText('Just')).toEqual([])
    })

    // what else a source lists is its own choice (the page's lists its controls only; the in-memory one, what it holds)
    test('listCandidates lists every control of the page, each with its box', async () => {
      const all = await (await get()).listCandidates()
      expect(ids(all)).toEqual(expect.arrayContaining(['help', 'open1', 'open2', 'q', 'save']))
      for (const e of all) {
        expect(e.boundingBox?.width).toBeGreaterThan(0)
        expect(e.boundingBox?.height).toBeGreaterThan(0)
      }
    })
  })
}
