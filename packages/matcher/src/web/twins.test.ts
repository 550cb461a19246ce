import { describe, expect, it } from 'vitest'
import { identityOf } from '../__tests__/login-page'
import { locate } from './locate'
import { memoryCandidateSource } from '../memory-candidate-source'
import type { CandidateElement } from '../score-candidate'

describe("rows with a control put beside each row's button (material-dashboard invoices, combination)", () => {
  const pdf = (row: number, y: number, x: number, neighborText: string[]): CandidateElement<string> => ({
    handle: `pdf-${row}`,
    axRole: 'button',
    axName: 'picture_as_pdf PDF',
    tagName: 'button',
    textContent: 'picture_as_pdf PDF',
    classNames: ['btn-x1', 'btn-link-x1'],
    xpath: `/html/body/main/div/ul/li[${row}]/div[2]/button`,
    boundingBox: { x, y, width: 145, height: 62 },
    neighborText,
  })
  const march = 'March, 01, 2020 #MS-415646'
  const row = (date: string, amount: string, decoy: string) => `${date} ${amount} ${decoy} picture_as_pdf PDF`
  // as recorded: the row's date and number first, then the other rows
  const recorded = {
    ...identityOf(
      pdf(1, 180, 1101, [
        march,
        'February, 10, 2021 #RV-126749 $250 picture_as_pdf PDF',
        'April, 05, 2020 #FB-212562 $560 picture_as_pdf PDF',
        'June, 25, 2019 #QW-103578 $120 picture_as_pdf PDF',
      ]),
    ),
    classNames: ['btn', 'btn-link'],
    sameLabelCount: 4,
  }
  // after the redesign (the wild corpus's combination, read from the page): each button moved down and a
  // look-alike ("Duplicate", "Print", "Export") became its nearest neighbour
  const page = [
    pdf(1, 326, 1187, [
      'Duplicate',
      march,
      row('February, 10, 2021 #RV-126749', '$250', 'Print'),
      row('April, 05, 2020 #FB-212562', '$560', 'Export'),
    ]),
    pdf(2, 436, 1169, [
      'Print',
      'February, 10, 2021 #RV-126749',
      row(march, '$180', 'Duplicate'),
      row('April, 05, 2020 #FB-212562', '$560', 'Export'),
    ]),
    pdf(3, 547, 1155, [
      'Export',
      'April, 05, 2020 #FB-212562',
      row(march, '$180', 'Duplicate'),
      row('February, 10, 2021 #RV-126749', '$250', 'Print'),
    ]),
    pdf(4, 668, 1155, [
      'Export',
      'June, 25, 2019 #QW-103578',
      row(march, '$180', 'Duplicate'),
      row('February, 10, 2021 #RV-126749', '$250', 'Print'),
    ]),
    pdf(5, 789, 1148, [
      'Print',
      'March, 01, 2019 #AR-803481',
      row(march, '$180', 'Duplicate'),
      row('February, 10, 2021 #RV-126749', '$250', 'Print'),
    ]),
  ]

  it('the row is told by the text after the new control, and only its button is taken', async () => {
    // wrapped since: the recorded XPath leads nowhere
    const wrapped = page.map((e) => ({ ...e, xpath: e.xpath?.replace('/button', '/div[2]/button') }))
    const r = await locate(recorded, memoryCandidateSource(wrapped), { selectors: { xpath: recorded.xpath } })
    expect(r.element?.handle).toBe('pdf-1')
    // row 1's button gone (a look-alike saying "Archive" in its place): no other row's button is taken
    const gone = wrapped.map((e, i) => (i === 0 ? { ...e, axName: 'Archive', textContent: 'Archive' } : e))
    const none = await locate(recorded, memoryCandidateSource(gone), { selectors: { xpath: recorded.xpath } })
    expect(none.status).toBe('not_found')
  })
})

describe('an unlabelled field told by its own caption (material-dashboard navbar search, combination)', () => {
  const field = (
    handle: string,
    y: number,
    extra: Partial<CandidateElement<string>> = {},
  ): CandidateElement<string> => ({
    handle,
    axRole: 'textbox',
    tagName: 'input',
    type: 'text',
    classNames: ['form-control-x1'],
    xpath: `/html/body/main/nav/div/div/div/div/div[${y > 100 ? 4 : 3}]/input`,
    boundingBox: { x: 498, y, width: 265, height: 40 },
    // a look-alike "Export" was put first in the group; the caption the person read follows
    neighborText: ['Export', 'Type here...', 'DUPLICATE ONLINE BUILDER Archive Star Export Create message'],
    ...extra,
  })
  const recorded = {
    ...identityOf(field('search', 17)),
    classNames: ['form-control'],
    xpath: '/html/body/main/nav/div/div/div/div/input',
    boundingBox: { x: 729, y: 17, width: 200, height: 40 },
    neighborText: ['Type here...', 'ONLINE BUILDER Star New message from Laur 13 minutes ago New'],
  }
  const lookAlike = field('look-alike', 84, { axName: 'Archive', placeholder: 'Archive' })

  it('moved 230 px with look-alikes around it, the field under its recorded caption is taken', async () => {
    const r = await locate(recorded, memoryCandidateSource([lookAlike, field('search', 124)]))
    expect(r.element?.handle).toBe('search')
  })

  it('with the field gone, the look-alike under the same caption is not taken', async () => {
    const r = await locate(recorded, memoryCandidateSource([lookAlike]))
    expect(r.status).toBe('not_found')
  })
})

describe('labels that share a word are no twins (gentelella segmented chart tabs "7 days / 30 days / 90 days")', () => {
  const tab = (days: number, slot: number, order: number[]): CandidateElement<string> => ({
    handle: `${days}`,
    axRole: 'button',
    axName: `${days} days`,
    textContent: `${days} days`,
    tagName: 'button',
    classNames: days === 7 ? ['chart-tab', 'active'] : ['chart-tab'],
    xpath: `/html/body/main/div/div[6]/div[3]/div[2]/button[${slot + 1}]`,
    boundingBox: { x: 107 + 62 * slot, y: 567, width: 60, height: 22 },
    neighborText: [...order.filter((d) => d !== days).map((d) => `${d} days`), 'SEGMENTED (CHART-TAB)'],
  })
  const recordedOrder = [7, 30, 90]
  // "30 days" and "90 days" share a word with "7 days": the recorder counted them as carrying its label
  const recorded = identityOf(tab(7, 0, recordedOrder), { sameLabelCount: 2 })
  const reordered = [90, 30, 7]

  it('reordered, the tab with the recorded label is taken, not the one now standing among its recorded neighbours', async () => {
    const page = reordered.map((d, slot) => tab(d, slot, reordered))
    const r = await locate(recorded, memoryCandidateSource(page))
    expect(r.element?.handle ?? null).toBe('7')
  })

  it('with "7 days" gone and a look-alike in its place, nothing is taken', async () => {
    const page = [
      { ...tab(7, 2, reordered), handle: 'print', axName: 'Print', textContent: 'Print' },
      tab(90, 0, reordered),
      tab(30, 1, reordered),
    ]
    const r = await locate(recorded, memoryCandidateSource(page))
    expect(r.status).toBe('not_found')
  })
})

describe('a label that only shares a word is no twin of the exact one (stisla breadcrumb "Bootstrap Components", reordered)', () => {
  const breadcrumb = (neighborText: string[], x: number): CandidateElement<string> => ({
    handle: 'breadcrumb',
    axRole: 'link',
    axName: 'Bootstrap Components',
    textContent: 'Bootstrap Components',
    tagName: 'a',
    href: '#',
    xpath: '/html/body/div/div/div[3]/section/div[1]/div/div[2]/a',
    boundingBox: { x, y: 99, width: 124, height: 16 },
    neighborText,
  })
  // the sidebar's dropdown toggle, open: its menu lists "Buttons", and "Dashboard" stands right above it
  const sidebar: CandidateElement<string> = {
    handle: 'sidebar',
    axRole: 'link',
    axName: 'Bootstrap',
    textContent: 'Bootstrap',
    tagName: 'a',
    href: '#',
    classNames: ['nav-link', 'has-dropdown'],
    iconClasses: ['fa-th'],
    xpath: '/html/body/div/div/div[2]/aside/ul/li[6]/a',
    boundingBox: { x: 0, y: 288, width: 250, height: 50 },
    neighborText: ['Dashboard', 'Alert Badge Breadcrumb Buttons Card Carousel', 'Button'],
  }
  const recorded = identityOf(breadcrumb(['Dashboard', 'Button', 'Buttons'], 1065), { sameLabelCount: 1 })

  it('the breadcrumb, its items reordered, is taken; the sidebar link is not', async () => {
    const reordered = breadcrumb(['Button', 'Dashboard', 'Buttons'], 1042)
    const r = await locate(recorded, memoryCandidateSource([sidebar, reordered]))
    expect(r.element?.handle ?? null).toBe('breadcrumb')
  })

  it('with the breadcrumb link gone, the sidebar link is not taken for it', async () => {
    const r = await locate(recorded, memoryCandidateSource([sidebar]))
    expect(r.element?.handle ?? null).not.toBe('sidebar')
  })
})

describe('a control relabelled where it stood, with nothing else to tell it (gentelella "Team" → "People")', () => {
  const option = (handle: string, text: string, n: number): CandidateElement<string> => ({
    handle,
    tagName: 'label',
    textContent: text,
    classNames: ['seg'],
    xpath: `/html/body/form/div[5]/div[1]/label[${n}]`,
    boundingBox: { x: 290 + 80 * n, y: 640, width: 60, height: 29 },
    neighborText: [],
  })
  const around = (texts: string[]) => [...texts, 'Visibility']
  const recorded = { ...identityOf(option('team', 'Team', 2)), neighborText: around(['Private', 'Public']) }

  it('is not taken: a removed control whose look-alike took its place looks the same', async () => {
    // what the recording knows of it is its words and its place, and neither tells "People" from "Archive"
    for (const now of ['People', 'Archive']) {
      const page = [
        { ...option('private', 'Private', 1), neighborText: around([now, 'Public']) },
        { ...option('now', now, 2), neighborText: around(['Private', 'Public']) },
        { ...option('public', 'Public', 3), neighborText: around([now, 'Private']) },
      ]
      const r = await locate(recorded, memoryCandidateSource(page), {
        selectors: { css: 'label.seg', xpath: '/html/body/form/div[5]/div[1]/label[2]' },
      })
      expect(r.status, now).toBe('not_found')
    }
  })
})

describe('a holder of the recorded label is gone, but of another kind (daily-loop bench, gentelella "Forms")', () => {
  const heading: CandidateElement<string> = {
    handle: 'title',
    axRole: 'heading',
    axName: 'Forms',
    tagName: 'h1',
    textContent: 'Forms',
    classNames: ['page-title'],
    xpath: '/html/body/main/div/div[1]/div/div[1]/h1',
    boundingBox: { x: 276, y: 94, width: 62, height: 23 },
    neighborText: ['UI', 'Advanced Validation Wizard Upload'],
  }
  const crumb: CandidateElement<string> = {
    handle: 'crumb',
    axRole: 'link',
    axName: 'Forms',
    tagName: 'a',
    textContent: 'Forms',
    xpath: '/html/body/main/div/div[1]/div/ol/li[2]/a',
    boundingBox: { x: 1100, y: 100, width: 40, height: 18 },
    neighborText: ['Home'],
  }
  const recorded = identityOf(heading, { sameLabelCount: 2 })

  it('the page title moved down (a banner on top) while the sidebar\'s "Forms" was reworded: the title is found', async () => {
    const moved = {
      ...heading,
      xpath: '/html/body/main/div/div[2]/div/div[1]/h1',
      boundingBox: { x: 276, y: 166, width: 62, height: 23 },
    }
    const r = await locate(recorded, memoryCandidateSource([crumb, moved]), {
      selectors: { css: 'h1.page-title', xpath: heading.xpath as string },
    })
    expect(r.status).toBe('found')
    expect(r.element?.handle).toBe('title')
  })

  it('two titles of that kind when recorded, one gone: the one left in another row is not taken for it', async () => {
    const other = {
      ...heading,
      handle: 'other-title',
      xpath: '/html/body/main/div/div[2]/div/div[1]/h1',
      neighborText: ['Charts', 'Line Bar Pie'],
    }
    // recorded: this title, the other title and the breadcrumb's "Forms"; now the recorded title is gone
    const r = await locate(recorded, memoryCandidateSource([crumb, other]), {
      selectors: { css: 'h1.page-title', xpath: heading.xpath as string },
    })
    expect(r.status).toBe('not_found')
  })
})

describe('locate: the lost-holder rule and a label carried exactly by the recorded element alone', () => {
  // Material Dashboard 2.1.0 tables.html: the sidebar link "dashboard Dashboard" and the navbar's icon link
  // "dashboard" (which agrees with it); release 3.1.0 has the sidebar link only, in another place and markup
  const recorded = {
    tagName: 'a',
    axRole: 'link',
    axName: 'dashboard Dashboard',
    textContent: 'dashboard Dashboard',
    classNames: ['nav-link'],
    href: './dashboard.html',
    xpath: '/html/body/div/div[1]/div[2]/ul/li[1]/a',
    neighborText: ['Material Dashboard', 'User Profile'],
    boundingBox: { x: 15, y: 90, width: 230, height: 50 },
    sameLabelCount: 1,
    exactLabelCount: 0,
  }
  const now: CandidateElement = {
    tagName: 'a',
    axRole: 'link',
    axName: 'dashboard Dashboard',
    textContent: 'dashboard Dashboard',
    classNames: ['nav-link', 'text-white'],
    href: '../pages/dashboard.html',
    xpath: '/html/body/aside/div[2]/ul/li[1]/a',
    neighborText: ['Material Dashboard 2', 'Tables'],
    boundingBox: { x: 32, y: 105, width: 218, height: 46 },
  }
  it('takes the one element with the very label when the holder that is gone only agreed with it', async () => {
    const found = await locate(recorded, memoryCandidateSource([now]))
    expect(found.element).toBe(now)
  })
  it('keeps refusing when the recorded label was carried exactly by another too, or the count is unknown', async () => {
    expect((await locate({ ...recorded, exactLabelCount: 1 }, memoryCandidateSource([now]))).element).toBeUndefined()
    expect((await locate({ ...recorded, exactLabelCount: null }, memoryCandidateSource([now]))).element).toBeUndefined()
  })
})
