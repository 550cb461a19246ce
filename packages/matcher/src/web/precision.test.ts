import { describe, expect, it } from 'vitest'
import { cancel, identityOf, signIn } from '../__tests__/login-page'
import { outcomes, replyInRows } from '../__tests__/web-helpers'
import { locate } from './locate'
import { memoryCandidateSource } from '../memory-candidate-source'
import type { CandidateElement } from '../score-candidate'

describe('precision over recall: what tells an element from its look-alikes', () => {
  it('an icon-only control is its icon: facebook swapped with github is not clicked (material-dashboard sign-in, no icon font)', async () => {
    const facebook: CandidateElement<string> = {
      handle: 'facebook',
      axRole: 'link',
      tagName: 'a',
      classNames: ['btn', 'btn-link', 'px-3'],
      iconClasses: ['fa-facebook'],
      xpath: '/html/body/main/div/div[1]/a',
      boundingBox: { x: 564, y: 184, width: 32, height: 20 },
      neighborText: ['Sign in'],
    }
    const github = { ...facebook, handle: 'github', iconClasses: ['fa-github'] }
    const moved = {
      ...facebook,
      xpath: '/html/body/main/div/div[2]/a',
      boundingBox: { x: 622, y: 184, width: 32, height: 20 },
    }
    const selectors = { xpath: facebook.xpath }
    // github stands where facebook stood: not it
    const swapped = await locate(identityOf(facebook), memoryCandidateSource([github]), { selectors })
    expect(swapped.status).toBe('not_found')
    expect((await locate(identityOf(facebook), memoryCandidateSource([github, moved]))).element?.handle).toBe(
      'facebook',
    )
    // a class renamed with a suffix is the same icon
    const renamed = { ...facebook, iconClasses: ['fa-facebook-q1x'] }
    expect((await locate(identityOf(facebook), memoryCandidateSource([renamed]), { selectors })).status).toBe('found')
  })

  it('of twins in rows, the one among the recorded neighbours is it, not the one at the recorded place (profile "REPLY", rows reordered)', async () => {
    const rows = [
      'Sophie B. Hi! I need more information',
      'Anne Marie Awesome work, can you change',
      'Ivanna About files I can',
    ]
    const reply = replyInRows(rows)
    const sophie = reply('sophie', 1, 'Sophie B. Hi! I need more information')
    const recorded = identityOf(sophie, { sameLabelCount: 2 })
    const reordered = [
      reply('anne', 1, 'Anne Marie Awesome work, can you change'),
      reply('ivanna', 2, 'Ivanna About files I can'),
      reply('sophie', 3, 'Sophie B. Hi! I need more information'),
    ]
    // the XPath alone (on the corpus the role lookup's ranking was not sure and the structural hit came next)
    const r = await locate(recorded, memoryCandidateSource(reordered), {
      selectors: { xpath: sophie.xpath },
      only: ['xpath'],
    })
    expect(r.element?.handle ?? null).not.toBe('anne')
  })

  it('of twins in rows whose texts share most words, the exact row wins over the recorded place (profile "REPLY": "Nick Daniel Hi! I need more information" took Sophie\'s place)', async () => {
    const rows = [
      'Sophie B. Hi! I need more information..',
      'Nick Daniel Hi! I need more information..',
      'Peterson Have a great afternoon..',
    ]
    const reply = replyInRows(rows)
    const sophie = reply('sophie', 1, rows[0] as string)
    const recorded = identityOf(sophie, { sameLabelCount: 2 })
    const reordered = [
      reply('nick', 1, rows[1] as string),
      reply('peterson', 2, rows[2] as string),
      reply('sophie', 3, rows[0] as string),
    ]
    const r = await locate(recorded, memoryCandidateSource(reordered))
    expect(r.element?.handle ?? null).toBe('sophie')
    // Sophie's row removed: Nick's row, which shares 5 of 9 words, is not taken for it
    const removed = await locate(recorded, memoryCandidateSource(reordered.slice(0, 2)))
    expect(removed.element?.handle ?? null).not.toBe('nick')
  })

  it('never takes a password field for the unlabelled e-mail field removed beside it (material-dashboard sign-in)', async () => {
    const email: CandidateElement<string> = {
      handle: 'email',
      axRole: 'textbox',
      tagName: 'input',
      type: 'email',
      classNames: ['form-control'],
      xpath: '/html/body/main/form/div[1]/input',
      boundingBox: { x: 485, y: 276, width: 309, height: 40 },
      neighborText: ['Email', 'Password', 'Remember me', 'SIGN IN'],
    }
    const password = {
      ...email,
      handle: 'password',
      type: 'password',
      xpath: '/html/body/main/form/div[2]/input',
      boundingBox: { x: 485, y: 332, width: 309, height: 40 },
    }
    const r = await locate(identityOf(email), memoryCandidateSource([password]), { selectors: { xpath: email.xpath } })
    expect(r.status).toBe('not_found')
    expect((await locate(identityOf(email), memoryCandidateSource([password, email]))).element?.handle).toBe('email')
  })

  it('of twins with the recorded label, the one that kept the recorded classes is it, not the one at the recorded XPath (sneat "Button"s swapped)', async () => {
    const primary: CandidateElement<string> = {
      handle: 'primary',
      axRole: 'button',
      axName: 'Button',
      tagName: 'button',
      classNames: ['btn', 'btn-primary', 'btn-lg'],
      xpath: '/html/body/div/div[1]/button[1]',
      boundingBox: { x: 100, y: 100, width: 200, height: 40 },
      neighborText: ['Button'],
    }
    const secondary = { ...primary, handle: 'secondary', classNames: ['btn', 'btn-secondary', 'btn-lg'] }
    const recorded = identityOf(primary, { sameLabelCount: 1 })
    // swapped: the secondary stands at the recorded XPath and place
    const swapped = [
      { ...secondary, xpath: '/html/body/div/div[1]/button[1]' },
      { ...primary, xpath: '/html/body/div/div[1]/button[2]', boundingBox: { x: 100, y: 148, width: 200, height: 40 } },
    ]
    const r = await locate(recorded, memoryCandidateSource(swapped), { selectors: { xpath: primary.xpath } })
    expect(r.element?.handle ?? null).not.toBe('secondary')
    // state classes do not tell twins apart: the recorded 'active' is gone from the very element
    const active = identityOf(
      { ...primary, classNames: ['btn', 'btn-primary', 'btn-lg', 'active'] },
      { sameLabelCount: 1 },
    )
    const same = [
      primary,
      {
        ...secondary,
        xpath: '/html/body/div/div[1]/button[2]',
        boundingBox: { x: 100, y: 148, width: 200, height: 40 },
      },
    ]
    const kept = await locate(active, memoryCandidateSource(same), { selectors: { xpath: primary.xpath } })
    expect(kept.element?.handle).toBe('primary')
  })
})

describe('precision rule: a structural hit must agree with what the user saw', () => {
  // the Chromium failure: #login removed, a same-class decoy took its place in the DOM (and its XPath)
  const login: CandidateElement<string> = {
    handle: 'login',
    axRole: 'button',
    axName: '로그인',
    tagName: 'button',
    id: 'login',
    classNames: ['btn', 'css-8f3a2b'],
    textContent: '로그인',
    xpath: '/html/body/form/button',
    boundingBox: { x: 100, y: 200, width: 120, height: 40 },
    neighborText: ['아이디', '비밀번호'],
  }
  const userId: CandidateElement<string> = {
    handle: 'user-id',
    axRole: 'textbox',
    axName: '아이디',
    tagName: 'input',
    name: 'userId',
    xpath: '/html/body/form/input[1]',
    boundingBox: { x: 100, y: 100, width: 240, height: 32 },
  }
  const selectors = { css: '#login', xpath: '/html/body/form/button' }

  it('removal with a same-class decoy in its place: not_found, the decoy is not clicked', async () => {
    const decoy = { ...login, handle: 'temp', id: 'temp', axName: '임시 저장', textContent: '임시 저장' }
    const r = await locate(identityOf(login), memoryCandidateSource([userId, decoy]), { selectors })
    expect(r.status).toBe('not_found')
    expect(r.element).toBeUndefined()
    expect(outcomes(r)).toMatchObject({ role: 'none', css: 'none', xpath: 'below_threshold' })
    expect(r.attempts.find((a) => a.strategy === 'xpath')?.detail).toMatch(/label/)
    // without the rule the old cascade healed to the decoy
    const old = await locate(identityOf(login), memoryCandidateSource([userId, decoy]), {
      selectors,
      minLabelScore: 0,
      minContextScore: 0,
    })
    expect(old.element?.handle).toBe('temp')
  })

  it('a radio removed from its group: the option left behind shares its name but is not taken (sneat)', async () => {
    // sneat forms-basic-inputs: two radios named default-radio-1; "Checked" is replaced by a look-alike
    const checked: CandidateElement<string> = {
      handle: 'checked',
      axRole: 'radio',
      axName: 'Checked',
      tagName: 'input',
      type: 'radio',
      name: 'default-radio-1',
      id: 'defaultRadio2',
      classNames: ['form-check-input'],
      xpath: '/html/body/div/form/div[2]/input',
      boundingBox: { x: 40, y: 240, width: 16, height: 16 },
      neighborText: ['Radio'],
    }
    const unchecked = {
      ...checked,
      handle: 'unchecked',
      axName: 'Unchecked',
      id: 'defaultRadio1',
      xpath: '/html/body/div/form/div[1]/input',
      boundingBox: { x: 40, y: 214, width: 16, height: 16 },
    }
    const lookAlike = {
      ...checked,
      handle: 'archive',
      axName: 'Archive',
      id: 'defaultRadio2-alt',
      name: 'default-radio-1-alt',
    }
    const r = await locate(identityOf(checked), memoryCandidateSource([unchecked, lookAlike]), {
      selectors: { css: '#defaultRadio2', xpath: checked.xpath },
    })
    expect(r.element?.handle).toBeUndefined()
    expect(r.status).toBe('not_found')
    expect(r.attempts.find((a) => a.strategy === 'name')?.outcome).toBe('skipped')
  })

  it('removal with a similar sibling label: 저장 gone, 임시 저장 remains → not_found', async () => {
    const save: CandidateElement<string> = {
      handle: 'save',
      axRole: 'button',
      axName: '저장',
      tagName: 'button',
      classNames: ['btn'],
      textContent: '저장',
      xpath: '/html/body/div/button[2]',
      boundingBox: { x: 240, y: 500, width: 100, height: 40 },
      neighborText: ['임시 저장', '취소'],
    }
    const draft = {
      ...save,
      handle: 'draft',
      axName: '임시 저장',
      textContent: '임시 저장',
      xpath: '/html/body/div/button[1]',
      boundingBox: { x: 120, y: 500, width: 100, height: 40 },
      neighborText: ['저장', '취소'],
    }
    const cancelKo = {
      ...draft,
      handle: 'cancel',
      axName: '취소',
      textContent: '취소',
      xpath: '/html/body/div/button[3]',
    }
    // the remaining buttons move up one place: 취소 now has 저장's XPath
    const now = [draft, { ...cancelKo, xpath: save.xpath, boundingBox: save.boundingBox }]
    const r = await locate(identityOf(save), memoryCandidateSource(now), { selectors: { css: 'button.btn' } })
    expect(r.status).toBe('not_found')
    expect(outcomes(r).similarity).toBe('below_threshold')
  })

  it('removal with the same label elsewhere on the page (another row): not_found', async () => {
    const row = (n: number): CandidateElement<string> => ({
      handle: `delete-${n}`,
      axRole: 'button',
      axName: 'Delete',
      tagName: 'button',
      classNames: ['btn', 'btn-danger'],
      textContent: 'Delete',
      xpath: `/html/body/table/tbody/tr[${n}]/td[3]/button`,
      boundingBox: { x: 800, y: 100 + 200 * n, width: 80, height: 32 },
      neighborText: [`Order ${1000 + n}`, 'Edit'],
    })
    const r = await locate(identityOf(row(1)), memoryCandidateSource([row(3)]), { selectors: { css: '.btn-danger' } })
    expect(r.status).toBe('not_found')
    expect(outcomes(r).role).toBe('below_threshold')
  })

  it('a reworded Korean label (로그인 → 로그인하기) found by its XPath still passes', async () => {
    const renamed = { ...login, id: 'signin', axName: '로그인하기', textContent: '로그인하기' }
    const r = await locate(identityOf(login), memoryCandidateSource([userId, renamed]), { selectors })
    expect(r.status).toBe('found')
    expect(r.strategy).toBe('xpath')
    expect(r.element?.handle).toBe('login')
  })

  it('Save → Save changes passes; a disagreeing label passes only with the recorded non-generated id', async () => {
    const save = { ...signIn, axName: 'Save', textContent: 'Save', id: 'save-btn' }
    const changed = { ...save, axName: 'Save changes', textContent: 'Save changes', id: 'save-2' }
    const r = await locate(identityOf(save), memoryCandidateSource([changed, cancel]), {
      selectors: { css: '#save-btn', xpath: save.xpath },
    })
    expect(r.strategy).toBe('xpath')
    expect(r.element?.handle).toBe('sign-in')
    const relabelled = { ...save, axName: 'Continue', textContent: 'Continue' }
    const byId = await locate(identityOf(save), memoryCandidateSource([relabelled, cancel]), {
      selectors: { css: '#save-btn' },
    })
    expect(byId.strategy).toBe('css')
    expect(byId.element?.handle).toBe('sign-in')
  })

  it('an element the page scrolled away is where it stood on the page (swagger-ui "POST /orders" on the unchanged page, replayed 306 px further down)', async () => {
    // the operation's summary button: no neighbour texts, the arrow "post /orders" beside it agrees with its label
    const summary: CandidateElement<string> = {
      handle: 'post-orders',
      axRole: 'button',
      axName: 'POST /orders Place an order',
      tagName: 'button',
      classNames: ['opblock-summary-control'],
      xpath:
        '/html/body/div/section/div[1]/div[2]/main/div[1]/section/div/span[2]/div/div/div/span[2]/div/div/button[1]',
      boundingBox: { x: 26, y: 401.09, width: 1196, height: 28 },
    }
    const arrow: CandidateElement<string> = {
      handle: 'arrow',
      axRole: 'button',
      axName: 'post /orders',
      tagName: 'button',
      classNames: ['opblock-control-arrow'],
      boundingBox: { x: 1222, y: 401.89, width: 32, height: 26.39 },
    }
    const recorded = identityOf({ ...summary, pageScroll: { x: 0, y: 900 } }, { sameLabelCount: 1, exactLabelCount: 0 })
    const shift = (e: CandidateElement<string>, dy: number, scrollY: number | null): CandidateElement<string> => ({
      ...e,
      boundingBox: {
        ...(e.boundingBox as { x: number; y: number; width: number; height: number }),
        y: (e.boundingBox?.y ?? 0) + dy,
      },
      pageScroll: scrollY === null ? null : { x: 0, y: scrollY },
    })
    const selectors = { xpath: summary.xpath as string }
    // the page scrolled 306 px less: the same place on the page, 306 px lower on the screen
    const scrolled = memoryCandidateSource([shift(summary, 306, 594), shift(arrow, 306, 594)])
    const found = await locate(recorded, scrolled, { selectors })
    expect(found.status).toBe('found')
    expect(found.element?.handle).toBe('post-orders')
    // without the scroll offsets only the screen is known: 306 px away, refused as before
    const unknown = memoryCandidateSource([shift(summary, 306, null), shift(arrow, 306, null)])
    expect((await locate(recorded, unknown, { selectors })).status).toBe('not_found')
    // another place on the page, at the recorded place on the screen (the page scrolled 306 px more and the
    // element moved down by as much): found by where it stands on the screen, as before
    const sameScreen = memoryCandidateSource([shift(summary, 0, 1206), shift(arrow, 0, 1206)])
    expect((await locate(recorded, sameScreen, { selectors })).element?.handle).toBe('post-orders')
  })
})
