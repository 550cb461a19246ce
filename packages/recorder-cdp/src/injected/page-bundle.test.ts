import { describe, expect, it } from 'vitest'
import { bundlePageFunctions } from '../../scripts/bundle-injected'
import { PAGE_SOURCES } from './page-bundle.generated'
import { describeElementsInPage, waitForDomQuietInPage } from './page-scripts'
import { installRecorderToolbarInPage, TOOLBAR_PICKING_KEY } from './recorder-toolbar'

describe('the bundled page functions', () => {
  it('are the sources of the page modules as they are now (else run scripts/bundle-injected.ts)', async () => {
    expect(PAGE_SOURCES).toEqual(await bundlePageFunctions())
  }, 60_000)

  it('are self-contained: each parses as a function with no import or export left', () => {
    for (const [name, source] of Object.entries(PAGE_SOURCES)) {
      expect(source, name).not.toMatch(/^\s*(import|export)\b/m)
      expect(() => new Function(`return (${source})`), name).not.toThrow()
    }
  })

  it('are what Node hands to evaluate: String(fn) is the bundle, and a call in Node throws', () => {
    expect(String(describeElementsInPage)).toBe(PAGE_SOURCES.describeElements)
    expect(`${waitForDomQuietInPage}`).toBe(PAGE_SOURCES.waitForDomQuiet)
    expect(installRecorderToolbarInPage.toString()).toBe(PAGE_SOURCES.installRecorderToolbar)
    expect(() => describeElementsInPage([])).toThrow(/runs in the page/)
  })

  it('share one copy of a helper and of a protocol key (no hand-written copy in the page code)', () => {
    // the frame walk is written once and used by the description and by the toolbar's frames
    expect(PAGE_SOURCES.describeElements).toContain('function frameOffset(')
    expect(PAGE_SOURCES.installRecorderToolbar).toContain('function frameOffset(')
    // the toolbar's keys come from its protocol module, as Node reads them
    expect(PAGE_SOURCES.installRecorderToolbar).toContain(JSON.stringify(TOOLBAR_PICKING_KEY))
  })
})
