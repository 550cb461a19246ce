import { describe, expect, it } from 'vitest'
import { identityOf } from '../__tests__/login-page'
import { locate } from './locate'
import { memoryCandidateSource } from '../memory-candidate-source'
import type { CandidateElement } from '../score-candidate'

describe('the sole-holder rule: a label unique when recorded and unique now', () => {
  // a settings page redesign: 저장 became 저장하기 and moved from the bottom left to the top right, a
  // 임시 저장 draft button and new neighbours came with it, the id was renamed
  const recorded: CandidateElement<string> = {
    handle: 'save',
    axRole: 'button',
    axName: '저장',
    tagName: 'button',
    textContent: '저장',
    id: 'save-btn',
    xpath: '/html/body/main/form/div[3]/button',
    boundingBox: { x: 32, y: 500, width: 90, height: 40 },
    neighborText: ['언어 한국어', '알림 받기', '테마 라이트 다크'],
  }
  const moved: CandidateElement<string> = {
    ...recorded,
    axName: '저장하기',
    textContent: '저장하기',
    id: 'settings-save',
    xpath: '/html/body/main/form/div[1]/div/button[2]',
    boundingBox: { x: 475, y: 160, width: 117, height: 40 },
    neighborText: ['임시 저장', '설정'],
  }
  const draft: CandidateElement<string> = {
    ...moved,
    handle: 'draft',
    axName: '임시 저장',
    textContent: '임시 저장',
    id: 'settings-draft',
    xpath: '/html/body/main/form/div[1]/div/button[1]',
    boundingBox: { x: 370, y: 160, width: 97, height: 40 },
    neighborText: ['저장하기', '설정'],
  }

  it('finds the moved, reworded element when its label was unique on the recorded page', async () => {
    const r = await locate({ ...identityOf(recorded), sameLabelCount: 0 }, memoryCandidateSource([draft, moved]))
    expect(r.status).toBe('found')
    expect(r.element?.handle).toBe('save')
  })

  it('keeps the context check when the label was shared when recorded, or when it is unknown', async () => {
    for (const sameLabelCount of [1, null]) {
      const r = await locate({ ...identityOf(recorded), sameLabelCount }, memoryCandidateSource([draft, moved]))
      expect(r.status, String(sameLabelCount)).toBe('not_found')
    }
  })

  it('keeps the context check when two elements carry an agreeing label now', async () => {
    const other = {
      ...moved,
      handle: 'other',
      xpath: '/html/body/footer/button',
      boundingBox: { x: 900, y: 650, width: 117, height: 40 },
    }
    const r = await locate({ ...identityOf(recorded), sameLabelCount: 0 }, memoryCandidateSource([draft, moved, other]))
    expect(r.element?.handle).not.toBe('other')
    expect(r.status).toBe('not_found')
  })

  it('a control of another kind with the same label does not make the label shared (radio vs checkbox)', async () => {
    const radio: CandidateElement<string> = {
      handle: 'radio',
      axRole: 'radio',
      axName: 'Checked',
      tagName: 'input',
      type: 'radio',
      xpath: '/html/body/form/div[2]/input',
      boundingBox: { x: 40, y: 300, width: 18, height: 18 },
      neighborText: ['Radio', 'Unchecked'],
    }
    const movedRadio = {
      ...radio,
      id: 'r2-x',
      xpath: '/html/body/div/form/div[4]/span/input',
      boundingBox: { x: 64, y: 520, width: 18, height: 18 },
      neighborText: ['Archive', 'Print'],
    }
    const checkbox = { ...movedRadio, handle: 'checkbox', axRole: 'checkbox', type: 'checkbox', xpath: '/c' }
    const r = await locate({ ...identityOf(radio), sameLabelCount: 0 }, memoryCandidateSource([checkbox, movedRadio]))
    expect(r.element?.handle).toBe('radio')
    // two radios "Checked" now: the label is no longer the radio's alone
    const twin = { ...movedRadio, handle: 'twin', xpath: '/t', boundingBox: { x: 64, y: 600, width: 18, height: 18 } }
    const shared = await locate({ ...identityOf(radio), sameLabelCount: 0 }, memoryCandidateSource([movedRadio, twin]))
    expect(shared.status).toBe('not_found')
  })

  it('never takes a qualified look-alike: 저장 removed, 임시 저장 remains → not_found', async () => {
    const r = await locate({ ...identityOf(recorded), sameLabelCount: 0 }, memoryCandidateSource([draft]))
    expect(r.status).toBe('not_found')
  })
})

describe('the lost-holder rule: fewer elements carry the recorded label than when recorded', () => {
  // sneat ui-tabs-pills: three tab sets side by side, each with a "Home" tab; the first set's is recorded
  const tab = (set: number, name = 'Home'): CandidateElement<string> => ({
    handle: `${name}-${set}`,
    axRole: 'tab',
    axName: name,
    tagName: 'button',
    textContent: name,
    xpath: `/html/body/div/div[${set}]/ul/li[1]/button`,
    boundingBox: { x: 40 + set * 420, y: 200, width: 80, height: 38 },
    neighborText: ['Profile', 'Messages'],
  })
  const recorded = { ...identityOf(tab(1)), sameLabelCount: 2 }

  it('does not take the twin of the next tab set when the recorded tab is gone (a look-alike in its place)', async () => {
    const r = await locate(recorded, memoryCandidateSource([tab(1, 'Archive'), tab(2), tab(3)]), {
      selectors: { xpath: tab(1).xpath },
    })
    expect(r.status).toBe('not_found')
    expect(r.attempts.find((a) => a.strategy === 'role')?.detail).toMatch(/is gone/)
  })

  it('finds the recorded tab while all three are there, and when its twin is the one gone but it kept its place', async () => {
    const all = await locate(recorded, memoryCandidateSource([tab(1), tab(2), tab(3)]))
    expect(all.element?.handle).toBe('Home-1')
    const twinGone = await locate(recorded, memoryCandidateSource([tab(1), tab(2, 'Archive'), tab(3)]))
    expect(twinGone.element?.handle).toBe('Home-1')
  })

  it('a reworded page loses holders without losing an element (sb-admin: "Search for..." → "Find for...", the table\'s "Search..." → "Find...")', async () => {
    const field = (handle: string, label: string, xpath: string, y: number): CandidateElement<string> => ({
      handle,
      axRole: 'textbox',
      axName: label,
      placeholder: label,
      ariaLabel: label,
      tagName: 'input',
      type: 'text',
      xpath,
      boundingBox: { x: 925, y, width: 226, height: 38 },
      neighborText: ['Start Bootstrap'],
    })
    const navbar = field('navbar', 'Search for...', '/html/body/nav/form/div/input', 9)
    const table = { ...field('table', 'Search...', '/html/body/div/main/div[3]/input', 660), neighborText: ['entries'] }
    // the recorder counted the table's field as a holder of "Search for..." (agreement ≥ 0.6)
    const recorded = { ...identityOf(navbar), sameLabelCount: 1 }
    const reworded = [
      // in a wrapper that came with the redesign
      {
        ...navbar,
        axName: 'Find for...',
        placeholder: 'Find for...',
        ariaLabel: 'Find for...',
        xpath: '/html/body/nav/form/div/div[2]/input',
      },
      { ...table, axName: 'Find...', placeholder: 'Find...', ariaLabel: 'Find...' },
    ]
    const r = await locate(recorded, memoryCandidateSource(reworded))
    expect(r.element?.handle).toBe('navbar')
    // the navbar field removed, the table's exact "Search for..." twin left: the count still speaks
    const twin = { ...table, axName: 'Search for...', placeholder: 'Search for...', ariaLabel: 'Search for...' }
    const gone = await locate(
      recorded,
      memoryCandidateSource([
        { ...navbar, handle: 'look-alike', axName: 'Archive', placeholder: 'Archive', ariaLabel: 'Archive' },
        twin,
      ]),
      { selectors: { xpath: navbar.xpath } },
    )
    expect(gone.status).toBe('not_found')
  })

  it('counts a disabled twin as the recorder did: it is still there, nothing is gone', async () => {
    const disabledTwin = { ...tab(2), enabled: false }
    const moved = { ...tab(1), xpath: '/html/body/div/div[1]/div/ul/li[1]/button' }
    const r = await locate({ ...identityOf(tab(1)), sameLabelCount: 1 }, memoryCandidateSource([moved, disabledTwin]))
    expect(r.element?.handle).toBe('Home-1')
  })
})

describe('labels that name the same action (UI vocabulary)', () => {
  const send: CandidateElement<string> = {
    handle: 'send',
    axRole: 'button',
    axName: '전송',
    tagName: 'button',
    textContent: '전송',
    id: 'send-btn',
    xpath: '/html/body/div/div[2]/button[1]',
    boundingBox: { x: 53, y: 273, width: 66, height: 40 },
    neighborText: ['메모'],
  }
  const clear = { ...send, handle: 'clear', axName: '지우기', textContent: '지우기', id: 'clear-button' }

  it('heals 전송 → 보내기 next to a 지우기 decoy, and clicks nothing when 전송 is gone', async () => {
    const reworded = {
      ...send,
      axName: '보내기',
      textContent: '보내기',
      id: 'send-button',
      xpath: '/html/body/div/div[2]/div/button[2]',
      boundingBox: { x: 140, y: 353, width: 80, height: 40 },
    }
    const moved = {
      ...clear,
      xpath: '/html/body/div/div[2]/div/button[1]',
      boundingBox: { x: 53, y: 353, width: 80, height: 40 },
    }
    const identity = { ...identityOf(send), sameLabelCount: 0 }
    const r = await locate(identity, memoryCandidateSource([moved, reworded]))
    expect(r.status).toBe('found')
    expect(r.element?.handle).toBe('send')
    const gone = await locate(identity, memoryCandidateSource([moved]))
    expect(gone.status).toBe('not_found')
  })
})

describe('twins and lone holders under a combination of changes (the wild corpus)', () => {
  // sneat ui-tabs-pills: two tab sets one above the other, each with a "Home" tab; the upper one is recorded.
  // The redesign rewords "Home" as "Start", renames ids and classes, wraps the tabs and pushes everything down.
  const tab = (set: number, name: string, y: number, xpath = `/html/body/div/div[${set}]/ul/li[1]/button`) =>
    ({
      handle: `${name}-${set}`,
      axRole: 'tab',
      axName: name,
      tagName: 'button',
      textContent: name,
      classNames: ['nav-link'],
      xpath,
      boundingBox: { x: 286, y, width: 84, height: 39 },
      neighborText: ['Profile', 'Messages', 'Icing pastry pudding oat cake.'],
    }) satisfies CandidateElement<string>
  const recorded = { ...identityOf(tab(1, 'Home', 288)), sameLabelCount: 1 }
  const redesigned = (upperY: number, lowerY: number) => [
    { ...tab(1, 'Start', upperY, '/html/body/div/div[1]/ul/li[1]/div/button'), classNames: ['nav-link-x1'] },
    { ...tab(2, 'Start', lowerY, '/html/body/div/div[2]/ul/li[1]/div/button'), classNames: ['nav-link-x1'] },
  ]

  it('of twins with the same label that similarity cannot tell apart, the one where the recorded one stood is it', async () => {
    const r = await locate(recorded, memoryCandidateSource(redesigned(398, 905)))
    expect(r.status).toBe('found')
    expect(r.element?.handle).toBe('Start-1')
    expect(r.attempts.find((a) => a.strategy === 'similarity')?.detail).toMatch(/where it stands/)
  })

  it('twins standing about as far from the recorded place stay ambiguous: nothing is clicked', async () => {
    const r = await locate(recorded, memoryCandidateSource(redesigned(388, 188)))
    expect(r.status).toBe('not_found')
  })

  it('the only element carrying the reworded label among the recorded neighbours is taken below the similarity floor', async () => {
    // sb-admin tables: the table's "Search..." field reworded to "Find...", its classes renamed, moved down by
    // a banner; the navbar's field (a holder of "Search" when recorded) reworded to "Find for..." far away
    const field = (handle: string, label: string, y: number, neighborText: string[]): CandidateElement<string> => ({
      handle,
      axRole: 'searchbox',
      axName: label,
      placeholder: label,
      tagName: 'input',
      type: 'search',
      classNames: ['datatable-input'],
      xpath: '/html/body/div/main/div[2]/div/div[1]/div[2]/input',
      boundingBox: { x: 1013, y, width: 226, height: 38 },
      neighborText,
    })
    const rows = ['5 10 15 20 25 entries per page', 'Showing 1 to 10 of 57 entries']
    const recordedField = {
      ...identityOf(field('table', 'Search within table', 348, rows)),
      placeholder: 'Search...',
      sameLabelCount: 1,
    }
    const page: [CandidateElement<string>, CandidateElement<string>] = [
      {
        ...field('table', 'Find within table', 458, rows),
        placeholder: 'Find...',
        classNames: ['datatable-input-x1'],
        xpath: '/html/body/div/main/div[2]/div/div[1]/div[2]/div/input',
        type: 'text',
      },
      { ...field('navbar', 'Find for...', 9, ['Start Bootstrap']), xpath: '/html/body/nav/form/div/input' },
    ]
    const r = await locate(recordedField, memoryCandidateSource(page))
    expect(r.element?.handle).toBe('table')
    expect(r.attempts.find((a) => a.strategy === 'similarity')?.detail).toMatch(/the only element that carries/)
    // the same page with the table's field gone (a look-alike in its place): the navbar's field is not taken
    const gone = await locate(
      recordedField,
      memoryCandidateSource([{ ...page[0], handle: 'look-alike', axName: 'Archive', placeholder: 'Archive' }, page[1]]),
    )
    expect(gone.status).toBe('not_found')
  })
})
