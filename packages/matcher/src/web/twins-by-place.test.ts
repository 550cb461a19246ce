import { describe, expect, it } from 'vitest'
import { identityOf } from '../__tests__/login-page'
import { sameStyleClasses } from './context'
import { locate } from './locate'
import { memoryCandidateSource } from '../memory-candidate-source'
import type { CandidateElement } from '../score-candidate'

describe('twins below the similarity floor (sneat ui-tabs-pills: every tab retagged <button role=tab> → <a role=button>)', () => {
  const lorem = 'Icing pastry pudding oat cake. Lemon drops cotton candy cara'
  // read from the page (tag-changes variant): the "Tabs" section's Basic and Filled sets on one row, the "Pills"
  // section's two sets 468 px below, each holding "Home", "Profile" and "Messages" over the same text
  const tab = (handle: string, name: string, x: number, y: number, icon: string | null, neighborText: string[]) =>
    ({
      handle,
      axRole: 'button',
      axName: name,
      tagName: 'a',
      textContent: name,
      classNames: name.startsWith('Home') ? ['nav-link', 'active'] : ['nav-link'],
      iconClasses: icon ? [icon] : [],
      xpath: `/html/body/div[1]/div[1]/div/div/div[1]/div[${y > 500 ? 2 : 1}]/div[${x > 700 ? 2 : 1}]/div/ul/li[${name.startsWith('Home') ? 1 : 2}]/a`,
      boundingBox: { x, y, width: icon ? 162 : 85, height: 39 },
      neighborText,
    }) satisfies CandidateElement<string>
  const page = [
    tab('tabs-home', 'Home', 286, 288.5, null, ['Profile', 'Messages', lorem]),
    tab('tabs-profile', 'Profile', 370.3, 288.5, null, ['Home', 'Messages', lorem]),
    tab('filled-home', 'Home 3', 783, 288.5, 'bx-home', ['Profile', 'Messages', lorem]),
    tab('filled-profile', 'Profile', 945.3, 288.5, 'bx-user', ['Home 3', 'Messages', lorem]),
    tab('pills-home', 'Home', 286, 756.3, null, ['Profile', 'Messages', lorem]),
    tab('pills-profile', 'Profile', 370.3, 756.3, null, ['Home', 'Messages', lorem]),
    tab('filled-pills-home', 'Home 3', 783, 756.3, 'bx-home', ['Profile', 'Messages', lorem]),
    tab('filled-pills-profile', 'Profile', 946, 756.3, 'bx-user', ['Home 3', 'Messages', lorem]),
  ]
  // as recorded (case.json of the wild bench): the Basic tab set's "Home" and "Profile"
  const home = {
    ...identityOf({ ...(page[0] as CandidateElement<string>), tagName: 'button', axRole: 'tab' }),
    type: 'button',
    xpath: '/html/body/div[1]/div[1]/div/div/div[1]/div[1]/div[1]/div/ul/li[1]/button',
    sameLabelCount: 3,
    exactLabelCount: 1,
  }
  const profile = {
    ...identityOf({ ...(page[1] as CandidateElement<string>), tagName: 'button', axRole: 'tab' }),
    type: 'button',
    xpath: '/html/body/div[1]/div[1]/div/div/div[1]/div[1]/div[1]/div/ul/li[2]/button',
    sameLabelCount: 3,
    exactLabelCount: 3,
  }
  const selectors = (id: typeof home) => ({ xpath: id.xpath, css: 'div.col-xl-6:nth-of-type(1) button.nav-link' })

  it('the tab of the recorded set is taken by where it stands, though every twin scores below the floor', async () => {
    const r = await locate(home, memoryCandidateSource(page), { selectors: selectors(home) })
    expect([r.status, r.element?.handle]).toEqual(['found', 'tabs-home'])
    const p = await locate(profile, memoryCandidateSource(page), { selectors: selectors(profile) })
    expect([p.status, p.element?.handle]).toEqual(['found', 'tabs-profile'])
  })

  it('with the recorded tab gone (a look-alike "Archive" in its place), no other set\'s tab is taken', async () => {
    const gone = page.map((e) => (e.handle === 'tabs-home' ? { ...e, axName: 'Archive', textContent: 'Archive' } : e))
    const r = await locate(home, memoryCandidateSource(gone), { selectors: selectors(home) })
    expect(r.status).not.toBe('found')
    const goneProfile = page.map((e) =>
      e.handle === 'tabs-profile' ? { ...e, axName: 'Archive', textContent: 'Archive' } : e,
    )
    const p = await locate(profile, memoryCandidateSource(goneProfile), { selectors: selectors(profile) })
    expect(p.status).not.toBe('found')
  })

  it('when place does not tell the sets apart (both as far from the recorded place), nothing is taken', async () => {
    const apart = page.map((e) =>
      e.handle === 'tabs-home'
        ? { ...e, boundingBox: { x: 286, y: 522, width: 85, height: 39 } }
        : e.handle === 'pills-home'
          ? { ...e, boundingBox: { x: 286, y: 55, width: 85, height: 39 } }
          : e,
    )
    const r = await locate(home, memoryCandidateSource(apart), { selectors: selectors(home) })
    expect(r.status).not.toBe('found')
  })
})

describe('twins told by their classes renamed as a whole (sneat ui-buttons "Block level buttons", combination)', () => {
  // read from the page (the combination: ids and classes renamed with one suffix, wrappers, decoys): three
  // "Button"s — the size row's plain one and the block card's primary and secondary, whose neighbours are alike
  const button = (
    handle: string,
    classNames: string[],
    x: number,
    y: number,
    width: number,
    neighborText: string[],
  ): CandidateElement<string> => ({
    handle,
    axRole: 'button',
    axName: 'Button',
    tagName: 'button',
    textContent: 'Button',
    classNames,
    boundingBox: { x, y, width, height: 50.5 },
    xpath: `/html/body/div[2]/div[1]/div/div/div[1]/div/div[4]/div/div[3]/div/div/div[${handle === 'secondary' ? 4 : 2}]/button`,
    neighborText,
  })
  const block = ['Archive', 'Duplicate', 'Block level buttons']
  const sizes = ['Archive', 'Button xl', 'Print', 'Button lg']
  // the other buttons whose labels agree with "Button" (the recorder counted 8 besides the recorded one)
  const other = (name: string, x: number, y: number, neighborText: string[]): CandidateElement<string> => ({
    ...button(name, ['btn-qdfup', 'btn-primary-qdfup'], x, y, 120, neighborText),
    axName: name,
    textContent: name,
    xpath: `/html/body/div[2]/div[1]/div/div/div[1]/div/div[4]/div/div[1]/div/span[${Math.round(x)}]/button`,
  })
  const toggles = ['Duplicate', 'Toggle button', 'Export', 'Active toggle button']
  const page = [
    other('Button xl', 454.8, -75.8, ['Archive', 'Print', 'Button lg', 'Pin']),
    other('Button lg', 707.2, -70.7, ['Archive', 'Button xl', 'Print', 'Pin']),
    button('size-row', ['btn-qdfup', 'btn-primary-qdfup'], 899.6, -64.9, 92.3, sizes),
    other('Button sm', 1060, -59.6, sizes),
    other('Button xs', 310, -13.8, sizes),
    button('primary', ['btn-qdfup', 'btn-primary-qdfup', 'btn-lg-qdfup'], 546.5, 99.9, 447, block),
    button('secondary', ['btn-qdfup', 'btn-secondary-qdfup', 'btn-lg-qdfup'], 546.5, 216.9, 447, block),
    other('Toggle button', 310, 441.6, toggles),
    other('Active toggle button', 310, 519.5, toggles),
    other('Disabled toggle button', 310, 597.4, toggles),
    {
      handle: 'menu',
      axRole: 'link',
      axName: 'Buttons',
      tagName: 'a',
      textContent: 'Buttons',
      href: 'ui-buttons.html',
      classNames: ['menu-link'],
      boundingBox: { x: 16, y: 794.7, width: 228, height: 43 },
      neighborText: ['Archive', 'Pin Accordion', 'Share Alerts', 'Share Badges'],
    },
    {
      handle: 'nested-group',
      axRole: 'group',
      axName: 'Button group with nested dropdown',
      tagName: 'div',
      classNames: ['btn-group-qdfup'],
      boundingBox: { x: 783, y: 1105.9, width: 576.7, height: 39 },
      neighborText: ['Button Nesting', 'Button Toolbar'],
    },
  ]
  // as recorded (case.json of the wild bench)
  const recorded = identityOf(
    {
      ...(page[5] as CandidateElement<string>),
      classNames: ['btn', 'btn-primary', 'btn-lg'],
      neighborText: ['Block level buttons'],
    },
    {
      type: 'button',
      xpath: '/html/body/div[1]/div[1]/div/div/div[1]/div/div[4]/div/div[3]/div/div/button[1]',
      sameLabelCount: 8,
      exactLabelCount: 2,
    },
  )
  const selectors = { css: 'div.d-grid.gap-2 > button.btn.btn-primary:nth-of-type(1)', xpath: recorded.xpath }

  it('the button carrying the recorded classes under the new suffix is taken, not its secondary twin', async () => {
    const r = await locate(recorded, memoryCandidateSource(page), { selectors })
    expect([r.status, r.element?.handle]).toEqual(['found', 'primary'])
  })

  it('swapped with its twin, it is still the primary one', async () => {
    const swapped = page.map((e) =>
      e.handle === 'primary'
        ? { ...e, boundingBox: { ...(e.boundingBox as object), y: 216.9 } as typeof e.boundingBox }
        : e.handle === 'secondary'
          ? { ...e, boundingBox: { ...(e.boundingBox as object), y: 99.9 } as typeof e.boundingBox }
          : e,
    )
    const r = await locate(recorded, memoryCandidateSource(swapped), { selectors })
    expect([r.status, r.element?.handle]).toEqual(['found', 'primary'])
  })

  it('with the primary one gone (a look-alike "Share" in its place), the secondary is not taken', async () => {
    const gone = page.map((e) => (e.handle === 'primary' ? { ...e, axName: 'Share', textContent: 'Share' } : e))
    const r = await locate(recorded, memoryCandidateSource(gone), { selectors })
    expect(r.status).not.toBe('found')
  })

  it('another set of classes is not the recorded one renamed', () => {
    const rec = new Set(['btn', 'btn-primary', 'btn-lg'])
    expect(sameStyleClasses(rec, new Set(['btn-x1', 'btn-primary-x1', 'btn-lg-x1']))).toBe(true)
    expect(sameStyleClasses(rec, new Set(['btn', 'btn-primary', 'btn-lg']))).toBe(true)
    expect(sameStyleClasses(rec, new Set(['btn-x1', 'btn-secondary-x1', 'btn-lg-x1']))).toBe(false)
    // one suffix for all: a class left as it was beside renamed ones is another set
    expect(sameStyleClasses(rec, new Set(['btn-x1', 'btn-primary-x2', 'btn-lg-x1']))).toBe(false)
    expect(sameStyleClasses(new Set(['btn', 'btn-lg']), new Set(['btn-lg', 'btn-lg-primary']))).toBe(false)
  })
})

describe('twins the neighbours cannot tell apart, told by their place (sneat ui-pagination-breadcrumbs, combination)', () => {
  // read from the page (the combination: a banner and wrappers pushed everything down, a look-alike stands
  // beside every page item, so "1" reads "Export 1"): the first-page chevron of each of the seven paginations
  const chevron = (handle: string, x: number, y: number, size: number, neighborText: string[]) =>
    ({
      handle,
      axRole: 'link',
      axName: '\uecb7',
      tagName: 'a',
      href: 'javascript:void(0);',
      classNames: ['page-link-qdfup'],
      iconClasses: ['bx-chevrons-left'],
      xpath: `/html/body/div[2]/div[1]/div/div/div[1]/div[2]/div/div/div/div/nav[${handle}]/ul/li[1]/div[2]/a`,
      boundingBox: { x, y, width: size, height: size },
      neighborText,
    }) satisfies CandidateElement<string>
  const page = [
    chevron('basic', 310, 393.3, 35, ['Export 1', 'Archive 2', 'Print 3', 'Duplicate 4']),
    chevron('small', 310, 624.3, 24, ['Pin 1', 'Export 2', 'Pin 3', 'Print 4']),
    chevron('default', 310, 699.3, 35, ['Pin 1', 'Pin 2', 'Print 3', 'Pin 4']),
    chevron('large', 310, 796.5, 46, ['Archive 1', 'Pin 2', 'Export 3', 'Pin 4']),
    chevron('left', 625.3, 634.1, 35, ['Archive 1', 'Print 2', 'Pin 3', 'Archive 4']),
    chevron('center', 692.3, 720.1, 35, ['Archive 1', 'Share 2', 'Export 3', 'Duplicate 4']),
    chevron('right', 839.5, 806.1, 35, ['Print 1', 'Pin 2', 'Export 3', 'Archive 4']),
  ]
  // as recorded (case.json of the wild bench): the "Basic" pagination's chevron
  const recorded = identityOf(
    { ...chevron('basic', 310, 286.9, 35, ['1', '2', '3', '4']), classNames: ['page-link'] },
    {
      xpath: '/html/body/div[1]/div[1]/div/div/div[1]/div[1]/div/div/div/div/nav/ul/li[1]/a',
      sameLabelCount: 6,
      exactLabelCount: 6,
    },
  )
  const selectors = { xpath: recorded.xpath }

  it('the one chevron still near the recorded place is taken, the six far below are not', async () => {
    const r = await locate(recorded, memoryCandidateSource(page), { selectors })
    expect([r.status, r.element?.handle]).toEqual(['found', 'basic'])
  })

  it("the row's items reversed (every chevron at its row's end, far from the place): nothing is taken", async () => {
    const reversed = page.map((e) => ({
      ...e,
      boundingBox: {
        ...(e.boundingBox as { x: number; y: number; width: number; height: number }),
        x: e.boundingBox.x + 480,
        y: e.boundingBox.y - 106,
      },
      neighborText: ['4', '3', '2', '1'],
    }))
    const r = await locate(recorded, memoryCandidateSource(reversed), { selectors })
    expect(r.status).not.toBe('found')
  })

  it('with the recorded chevron gone (a starred look-alike "Archive" in its place), no other is taken', async () => {
    const gone = page.map((e) =>
      e.handle === 'basic' ? { ...e, axName: 'Archive', title: 'Archive', iconClasses: ['bx-star'] } : e,
    )
    const r = await locate(recorded, memoryCandidateSource(gone), { selectors })
    expect(r.status).not.toBe('found')
  })

  it('a twin as near as half of it is too near to tell: nothing is taken', async () => {
    const near = page.map((e) =>
      e.handle === 'small' ? { ...e, boundingBox: { x: 310, y: 470, width: 24, height: 24 } } : e,
    )
    const r = await locate(recorded, memoryCandidateSource(near), { selectors })
    expect(r.status).not.toBe('found')
  })
})

describe('a link to another page does not stand for a retagged toggle (gentelella form_advanced "Forms", tag-changes)', () => {
  // read from the page (tag-changes: every sidebar toggle `<button>` became `<a role=button>`, and the toggle now
  // reads "Forms Hot", its badge shown); the breadcrumb's "Forms" links to form.html
  const toggle = (name: string, div: number, y: number, neighborText: string[]): CandidateElement<string> => ({
    handle: name,
    axRole: 'button',
    axName: name,
    tagName: 'a',
    textContent: name,
    classNames: ['nav-link', 'nav-toggle'],
    xpath: `/html/body/aside/nav/div[1]/div[${div}]/a`,
    boundingBox: { x: 8, y, width: 236, height: 32 },
    neighborText,
  })
  const page: CandidateElement<string>[] = [
    toggle('Dashboards', 2, 98.3, ['Operations Analytics Sales System health', 'GENERAL']),
    toggle('Forms Hot', 3, 139.3, ['General Advanced controls Buttons Upload Validation Wizard', 'GENERAL']),
    toggle('Tables', 4, 378.3, ['Static Dynamic', 'GENERAL']),
    toggle('Charts New', 5, 419.3, ['Chart cards ECharts gallery SVG charts', 'GENERAL']),
    {
      handle: 'breadcrumb',
      axRole: 'link',
      axName: 'Forms',
      tagName: 'a',
      textContent: 'Forms',
      href: 'form.html',
      classNames: [],
      xpath: '/html/body/header/div[1]/nav/a[2]',
      boundingBox: { x: 373.6, y: 18.2, width: 39.5, height: 18.6 },
      neighborText: ['Home', '›', 'Advanced', '⌘K'],
    },
  ]
  // as recorded (case.json of the wild bench): the collapsed sidebar's toggle, no neighbour texts seen
  const recorded = identityOf(
    { ...toggle('Forms', 3, 99, []), tagName: 'button', boundingBox: { x: 8, y: 99, width: 48, height: 34 } },
    {
      type: 'button',
      xpath: '/html/body/aside/nav/div[1]/div[3]/button',
      neighborText: null,
      sameLabelCount: 1,
      exactLabelCount: 1,
    },
  )
  const selectors = { xpath: recorded.xpath }

  it('the retagged toggle is taken, the breadcrumb link to form.html is not', async () => {
    const r = await locate(recorded, memoryCandidateSource(page), { selectors })
    expect([r.status, r.element?.handle]).toEqual(['found', 'Forms Hot'])
  })

  it('with the toggle gone (a look-alike "Duplicate" in its place), nothing is taken', async () => {
    const gone = page.map((e) =>
      e.handle === 'Forms Hot' ? { ...e, axName: 'Duplicate', textContent: 'Duplicate' } : e,
    )
    const r = await locate(recorded, memoryCandidateSource(gone), { selectors })
    expect(r.status).not.toBe('found')
  })
})
