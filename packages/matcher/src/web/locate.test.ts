import { describe, expect, it } from 'vitest'
import type { BoundingBox } from '@qa/model'
import { cancel, email, forgot, identityOf, password, recordedPage, signIn } from '../__tests__/login-page'
import { toHealingRecord } from '../healing-record'
import { locate } from './locate'
import { memoryCandidateSource } from '../memory-candidate-source'
import type { CandidateElement } from '../score-candidate'

const outcomes = (r: { attempts: { strategy: string; outcome: string }[] }) =>
  Object.fromEntries(r.attempts.map((a) => [a.strategy, a.outcome]))

/** A profile page's "REPLY" link in row `row`: its own row's text comes first, the other rows follow as further neighbours. */
const replyInRows =
  (rows: string[]) =>
  (handle: string, row: number, who: string): CandidateElement<string> => ({
    handle,
    axRole: 'link',
    axName: 'REPLY',
    tagName: 'a',
    classNames: ['btn', 'btn-link'],
    xpath: `/html/body/ul/li[${row}]/a`,
    boundingBox: { x: 600, y: 100 + 60 * row, width: 60, height: 30 },
    neighborText: [who, ...rows.filter((r) => r !== who).map((r) => `${r} REPLY`)],
  })

describe('locate on an unchanged page', () => {
  it('finds the element by role + name first, with high confidence', async () => {
    const r = await locate(identityOf(signIn), memoryCandidateSource(recordedPage))
    expect(r.status).toBe('found')
    expect(r.strategy).toBe('role')
    expect(r.element?.handle).toBe('sign-in')
    expect(r.confidence).toBeGreaterThan(0.95)
    expect(r.point).toEqual({ x: 660, y: 420 })
    expect(toHealingRecord(r)).toBeNull()
  })
})

describe('locate on mutated pages (self-healing)', () => {
  it('renamed id: the stored CSS selector fails, the text strategy heals it', async () => {
    // a legacy step recorded without accessibility data: only tag, id, classes, text and selectors
    const identity = identityOf(signIn, { axRole: null, axName: null, xpath: null })
    const page = recordedPage.map((e) =>
      e === signIn ? { ...signIn, id: 'signin-button', xpath: '/html/body/main/form/div[4]/button[1]' } : e,
    )
    const r = await locate(identity, memoryCandidateSource(page), {
      selectors: { css: '#login-btn', xpath: '/html/body/main/form/div[3]/button[1]' },
    })
    expect(r.status).toBe('found')
    expect(r.strategy).toBe('text')
    expect(r.element?.handle).toBe('sign-in')
    expect(outcomes(r)).toMatchObject({ role: 'skipped', css: 'none', xpath: 'none', text: 'matched' })
    const heal = toHealingRecord(r, {
      previousSelector: '#login-btn',
      original: { x: 660, y: 420 },
      healedAt: '2025-01-01T00:00:00.000Z',
    })
    expect(heal).toMatchObject({ strategy: 'text', previousSelector: '#login-btn', coordinateChange: { x: 0, y: 0 } })
    expect(heal?.strategiesTried?.map((a) => a.strategy)).toContain('css')
  })

  it('wrapped element: the XPath breaks, the class selector still finds it before XPath is tried', async () => {
    const iconSave: CandidateElement<string> = {
      handle: 'save-icon',
      tagName: 'button',
      classNames: ['icon-btn', 'icon-save'],
      xpath: '/html/body/div[1]/button[2]',
      boundingBox: { x: 40, y: 10, width: 32, height: 32 },
    }
    const iconOpen: CandidateElement<string> = {
      ...iconSave,
      handle: 'open-icon',
      classNames: ['icon-btn', 'icon-open'],
      xpath: '/html/body/div[1]/button[1]',
      boundingBox: { x: 4, y: 10, width: 32, height: 32 },
    }
    const wrapped = { ...iconSave, xpath: '/html/body/div[1]/span/button[1]' }
    const source = memoryCandidateSource([iconOpen, wrapped])
    const r = await locate(identityOf(iconSave), source, {
      selectors: { css: 'button.icon-save', xpath: iconSave.xpath },
    })
    expect(r.strategy).toBe('css')
    expect(r.element?.handle).toBe('save-icon')
    expect(source.calls).not.toContain(`xpath:${iconSave.xpath}`)
  })

  it('added decoy with the same class: the ambiguous selector is resolved by similarity, not by order', async () => {
    const save: CandidateElement<string> = {
      ...signIn,
      handle: 'save',
      axRole: null,
      axName: null,
      id: null,
      textContent: 'Save',
      xpath: null,
    }
    const decoy: CandidateElement<string> = {
      ...save,
      handle: 'delete',
      textContent: 'Delete',
      boundingBox: { x: 300, y: 400, width: 120, height: 40 },
    }
    const identity = identityOf(save)
    // the decoy comes first in document order
    const r = await locate(identity, memoryCandidateSource([decoy, save, cancel]), {
      selectors: { css: '.btn-primary' },
    })
    expect(r.strategy).toBe('css')
    expect(r.element?.handle).toBe('save')
    expect(r.attempts.find((a) => a.strategy === 'css')).toMatchObject({ outcome: 'matched', candidates: 2 })
  })

  it('same role and name twice: the one that matches the rest of the identity wins', async () => {
    const dialogSignIn: CandidateElement<string> = {
      ...signIn,
      handle: 'dialog-sign-in',
      id: 'modal-login',
      classNames: ['btn', 'btn-link'],
      xpath: '/html/body/div[9]/div/button',
      boundingBox: { x: 1500, y: 40, width: 80, height: 24 },
      neighborText: ['Close'],
    }
    const r = await locate(identityOf(signIn), memoryCandidateSource([dialogSignIn, ...recordedPage]))
    expect(r.strategy).toBe('role')
    expect(r.element?.handle).toBe('sign-in')
    expect(r.attempts[0]).toMatchObject({ strategy: 'role', outcome: 'matched', candidates: 2 })
  })

  it('reworded label, new id and layout: only the similarity strategy finds it', async () => {
    const logIn = {
      ...signIn,
      axName: 'Log in',
      textContent: 'Log in',
      id: 'login-button',
      xpath: '/html/body/main/form/div[4]/button',
    }
    const r = await locate(identityOf(signIn), memoryCandidateSource([email, password, logIn, cancel, forgot]), {
      selectors: { css: '#login-btn' },
    })
    expect(r.status).toBe('found')
    expect(r.strategy).toBe('similarity')
    expect(r.element?.handle).toBe('sign-in')
    expect(r.confidence).toBeGreaterThanOrEqual(0.7)
    expect(outcomes(r)).toMatchObject({ role: 'none', css: 'none', xpath: 'none', text: 'none', similarity: 'matched' })
  })

  it('Korean labels: a reworded 로그인 → 로그인하기 button is healed, 회원가입 is not taken', async () => {
    const login: CandidateElement<string> = {
      handle: 'login',
      axRole: 'button',
      axName: '로그인',
      tagName: 'button',
      id: 'btn-login',
      classNames: ['btn'],
      textContent: '로그인',
      boundingBox: { x: 500, y: 600, width: 160, height: 48 },
      neighborText: ['아이디', '비밀번호'],
    }
    const join: CandidateElement<string> = {
      ...login,
      handle: 'join',
      axName: '회원가입',
      textContent: '회원가입',
      id: 'btn-join',
      boundingBox: { x: 680, y: 600, width: 160, height: 48 },
    }
    const renamed = { ...login, axName: '로그인하기', textContent: '로그인하기', id: 'btn-signin' }
    const r = await locate(identityOf(login), memoryCandidateSource([join, renamed]))
    expect(r.strategy).toBe('similarity')
    expect(r.element?.handle).toBe('login')
    // unchanged Korean page: role + exact name
    const same = await locate(identityOf(login), memoryCandidateSource([join, login]))
    expect(same.strategy).toBe('role')
    expect(same.element?.handle).toBe('login')
  })

  it('form name: finds an input whose label changed by its name attribute', async () => {
    const renamed = { ...email, axName: 'E-mail address', id: 'user-email' }
    const r = await locate(identityOf(email), memoryCandidateSource([renamed, password, signIn]))
    expect(r.strategy).toBe('name')
    expect(r.element?.handle).toBe('email')
  })

  it('test id wins when role, aria-label and name fail', async () => {
    const withTestId = { ...signIn, dataTestId: 'submit-login' }
    const changed = { ...withTestId, axName: 'Continue', textContent: 'Continue', id: 'x1' }
    const r = await locate(identityOf(withTestId), memoryCandidateSource([changed, cancel]))
    expect(r.strategy).toBe('test_id')
    expect(r.element?.handle).toBe('sign-in')
  })
})

describe('precision over recall', () => {
  it('answers not_found when the element is gone, instead of healing to a sibling', async () => {
    const r = await locate(identityOf(signIn), memoryCandidateSource([email, password, cancel, forgot]), {
      selectors: { css: '#login-btn' },
    })
    expect(r.status).toBe('not_found')
    expect(r.strategy).toBe('failed')
    expect(r.element).toBeUndefined()
    expect(outcomes(r).similarity).toBe('below_threshold')
    expect(outcomes(r).coordinate).toBe('skipped')
    expect(toHealingRecord(r)).toBeNull()
  })

  it('rejects a unique text hit on a different kind of element', async () => {
    const heading: CandidateElement<string> = {
      handle: 'heading',
      axRole: 'heading',
      axName: 'Sign in',
      tagName: 'h1',
      textContent: 'Sign in',
      boundingBox: { x: 560, y: 120, width: 400, height: 48 },
    }
    const r = await locate(identityOf(signIn), memoryCandidateSource([heading, email, password, cancel]))
    expect(r.status).toBe('not_found')
    expect(outcomes(r).text).toBe('below_threshold')
  })

  it('ignores hidden elements', async () => {
    const hidden = { ...signIn, handle: 'hidden', visible: false }
    const r = await locate(
      identityOf(signIn),
      memoryCandidateSource([hidden, { ...signIn, boundingBox: { x: 610, y: 400, width: 120, height: 40 } }]),
    )
    expect(r.strategy).toBe('role')
    expect(r.element?.handle).toBe('sign-in')
    expect(r.attempts[0]?.candidates).toBe(1)
  })

  it('uses the recorded coordinates only when allowed, and says so', async () => {
    const page = [email, password, cancel]
    const r = await locate(identityOf(signIn), memoryCandidateSource(page), { allowCoordinateFallback: true })
    expect(r).toMatchObject({
      status: 'found',
      strategy: 'coordinate',
      coordinateFallback: true,
      confidence: 0,
      point: { x: 660, y: 420 },
    })
    expect(toHealingRecord(r)).toBeNull()
  })

  it('records a failing source as an error and goes on', async () => {
    const source = memoryCandidateSource(recordedPage)
    source.byRole = async () => {
      throw new Error('target closed')
    }
    const r = await locate(identityOf(signIn), source)
    expect(r.attempts[0]).toMatchObject({ strategy: 'role', outcome: 'error', detail: 'target closed' })
    expect(r.status).toBe('found')
    expect(r.strategy).toBe('xpath')
  })

  it('uses the visual strategy of the source before coordinates', async () => {
    const source = memoryCandidateSource([email, password], {
      visual: () => ({ box: { x: 610, y: 405, width: 120, height: 40 }, score: 0.93 }),
    })
    const r = await locate(identityOf(signIn), source, { allowCoordinateFallback: true })
    expect(r.strategy).toBe('visual')
    expect(r.point).toEqual({ x: 670, y: 425 })
    const weak = memoryCandidateSource([email], {
      visual: () => ({ box: { x: 0, y: 0, width: 10, height: 10 }, score: 0.5 }),
    })
    expect((await locate(identityOf(signIn), weak)).status).toBe('not_found')
  })

  it('a pixel-only hit where nothing interactive stands is no recorded control (gentelella avatar "A" removed)', async () => {
    const avatar: CandidateElement<string> = {
      handle: 'avatar',
      axRole: 'button',
      axName: 'Account menu',
      tagName: 'button',
      textContent: 'A',
      boundingBox: { x: 1228, y: 13, width: 28, height: 28 },
    }
    const onText = (nothingInteractive: boolean) =>
      memoryCandidateSource([email], {
        visual: () => ({ box: { x: 600, y: 300, width: 28, height: 28 }, score: 0.99, nothingInteractive }),
      })
    const r = await locate(identityOf(avatar), onText(true))
    expect(r.status).toBe('not_found')
    expect(r.attempts.find((a) => a.strategy === 'visual')?.detail).toMatch(/nothing a person can act on/)
    // the adapter could not tell (no listing under the point): near-exact pixels alone still count
    expect((await locate(identityOf(avatar), onText(false))).strategy).toBe('visual')
    // a recorded <div> with a click listener is not a control the listing knows: its pixels still count
    const card = { ...avatar, tagName: 'div', axRole: null }
    expect((await locate(identityOf(card), onText(true))).strategy).toBe('visual')
  })

  it('a visual hit on the same-looking link of another card is not taken (sb-admin "View Details")', async () => {
    const primary: CandidateElement<string> = {
      handle: 'primary',
      axRole: 'link',
      axName: 'View Details',
      tagName: 'a',
      textContent: 'View Details',
      xpath: '/html/body/main/div[1]/div[1]/div/div[2]/a',
      boundingBox: { x: 41, y: 250, width: 86, height: 21 },
      neighborText: ['Primary Card'],
    }
    const warning = {
      ...primary,
      handle: 'warning',
      xpath: '/html/body/main/div[1]/div[2]/div/div[2]/a',
      boundingBox: { x: 361, y: 250, width: 86, height: 21 },
      neighborText: ['Warning Card'],
    }
    const archive = { ...primary, handle: 'archive', axName: 'Archive', textContent: 'Archive', xpath: '/x' }
    const source = memoryCandidateSource([archive, warning], {
      visual: () => ({ box: { x: 361, y: 250, width: 86, height: 21 }, score: 0.97, element: warning }),
    })
    const r = await locate(identityOf(primary), source, {
      selectors: { css: 'div.bg-primary a', xpath: primary.xpath },
    })
    expect(r.status).toBe('not_found')
    expect(r.attempts.find((a) => a.strategy === 'visual')?.detail).toMatch(/stands elsewhere/)
  })

  it('the same pixels at the same place pass although the DOM lost the label (gentelella collapsed nav)', async () => {
    const navBox = { x: 12, y: 120, width: 220, height: 36 }
    const recorded: CandidateElement<string> = {
      handle: 'dashboards',
      axRole: 'button',
      axName: 'Dashboards',
      tagName: 'button',
      textContent: 'Dashboards',
      xpath: '/html/body/aside/nav/div[1]/div[2]/button',
      boundingBox: navBox,
      neighborText: ['Operations', 'Forms'],
    }
    const now = { ...recorded, axName: '', textContent: '' }
    const at = (score: number) => memoryCandidateSource([now], { visual: () => ({ box: navBox, score, element: now }) })
    const exact = await locate(identityOf(recorded), at(0.995), { selectors: { xpath: recorded.xpath } })
    expect(exact.status).toBe('found')
    expect(exact.strategy).toBe('visual')
    expect(outcomes(exact)).toMatchObject({ xpath: 'below_threshold' })
    // merely similar pixels do not outweigh the missing label, nor do the same pixels somewhere else
    expect((await locate(identityOf(recorded), at(0.9))).status).toBe('not_found')
    const movedBox = { ...navBox, y: 620 }
    const moved = { ...now, boundingBox: movedBox, neighborText: ['Settings'] }
    const far = memoryCandidateSource([moved], {
      visual: () => ({ box: movedBox, score: 0.995, element: moved }),
    })
    expect((await locate(identityOf(recorded), far)).status).toBe('not_found')
    // a checkbox-sized crop looks like every checkbox: its pixels say nothing (sb-admin "Remember Password" removed)
    const tinyBox = { x: 12, y: 120, width: 16, height: 16 }
    const tiny = {
      ...recorded,
      axRole: 'checkbox',
      tagName: 'input',
      boundingBox: tinyBox,
    }
    const lookAlike = { ...tiny, axName: '', textContent: '' }
    const box = memoryCandidateSource([lookAlike], {
      visual: () => ({ box: tinyBox, score: 1, element: lookAlike }),
    })
    expect((await locate(identityOf(tiny), box)).status).toBe('not_found')
  })

  it('pixels shown by one element of the page only outweigh a moved place (gentelella rail under a banner)', async () => {
    // the collapsed sidebar's icon button: its text is display:none now, a banner and a menu entry pushed it down
    const recorded: CandidateElement<string> = {
      handle: 'dashboards',
      axRole: 'button',
      axName: 'Dashboards',
      tagName: 'button',
      xpath: '/html/body/aside/nav/div[1]/div[2]/button',
      boundingBox: { x: 8, y: 64, width: 48, height: 34 },
      neighborText: ['General'],
    }
    const movedBox = { x: 8, y: 180, width: 48, height: 34 }
    const moved = {
      ...recorded,
      axName: '',
      xpath: '/html/body/aside/nav/div[1]/div[2]/div/button',
      boundingBox: movedBox,
      neighborText: ['Duplicate'],
    }
    const seen = (element: CandidateElement<string>, lookAlikes: number | undefined) =>
      memoryCandidateSource([element], {
        visual: () => ({
          box: element.boundingBox as typeof movedBox,
          score: 0.999,
          element,
          ...(lookAlikes === undefined ? {} : { lookAlikes }),
        }),
      })
    const found = await locate(identityOf(recorded), seen(moved, 0))
    expect(found.status).toBe('found')
    expect(found.strategy).toBe('visual')
    // another element shows the same pixels, or nobody checked: the pixels do not tell which
    expect((await locate(identityOf(recorded), seen(moved, 1))).status).toBe('not_found')
    expect((await locate(identityOf(recorded), seen(moved, undefined))).status).toBe('not_found')
    // the element under the pixels says something else, or is another kind of control
    expect((await locate(identityOf(recorded), seen({ ...moved, axName: 'Archive' }, 0))).status).toBe('not_found')
    expect((await locate(identityOf(recorded), seen({ ...moved, axRole: 'checkbox' }, 0))).status).toBe('not_found')
    // far from where it stood, among other neighbours
    const far = { ...moved, boundingBox: { ...movedBox, y: 600 } }
    expect((await locate(identityOf(recorded), seen(far, 0))).status).toBe('not_found')
    // … unless it says exactly the recorded label (sneat's search field pushed aside by a look-alike)
    const farNamed = { ...far, axName: 'Dashboards' }
    expect((await locate(identityOf(recorded), seen(farNamed, 0))).status).toBe('found')
    expect((await locate(identityOf(recorded), seen(farNamed, 1))).status).toBe('not_found')
  })

  it('the exact label does not vouch for pixels when another element carried it at recording (gentelella breadcrumb "Home" removed, header "Home" alike)', async () => {
    const crumb: CandidateElement<string> = {
      handle: 'crumb',
      axRole: 'link',
      axName: 'Home',
      tagName: 'a',
      xpath: '/html/body/main/nav[1]/a[1]',
      boundingBox: { x: 697, y: 685, width: 38, height: 19 },
      neighborText: ['/', 'Projects', 'Q2 Marketing', 'Tasks'],
    }
    const header = {
      ...crumb,
      handle: 'header',
      xpath: '/html/body/header/nav/a[1]',
      boundingBox: { x: 300, y: 20, width: 38, height: 19 },
      neighborText: ['Dashboard', 'Reports'],
    }
    const seen = memoryCandidateSource([header], {
      visual: () => ({ box: header.boundingBox, score: 0.999, element: header, lookAlikes: 0 }),
    })
    // two links said "Home" when recorded; one is gone, and it may be the recorded one
    const r = await locate(identityOf(crumb, { sameLabelCount: 1 }), seen)
    expect(r.status).toBe('not_found')
    // recorded as the only "Home", its pixels and label on one element outweigh the moved place
    expect((await locate(identityOf(crumb, { sameLabelCount: 0 }), seen)).element?.handle).toBe('header')
  })

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

  it('the same pixels and the recorded form name outweigh a changed place (sample-app v2 알림 받기 → 알림 수신)', async () => {
    const movedBox = { x: 420, y: 640, width: 18, height: 18 }
    const recorded: CandidateElement<string> = {
      handle: 'notify',
      axRole: 'checkbox',
      axName: '알림 받기',
      tagName: 'input',
      type: 'checkbox',
      name: 'notifications',
      id: 'notifications',
      xpath: '/html/body/main/form/section[2]/label/input',
      boundingBox: { x: 57, y: 291, width: 18, height: 18 },
      neighborText: ['알림 받기', '새 아이템과 이벤트 소식을 알려 드립니다.'],
    }
    const moved = {
      ...recorded,
      axName: '알림 수신',
      id: 'notify-toggle',
      xpath: '/html/body/main/div/form/section[3]/label/input',
      boundingBox: movedBox,
      neighborText: ['알림 수신', '푸시 알림'],
    }
    const source = memoryCandidateSource([moved], {
      visual: () => ({ box: movedBox, score: 0.99, element: moved }),
    })
    const r = await locate(identityOf(recorded), source)
    expect(r.strategy).toBe('visual')
    expect(r.element?.handle).toBe('notify')
    // without the name the changed place stands: not found
    const anonymous = { ...moved, name: 'alerts' }
    const other = memoryCandidateSource([anonymous], {
      visual: () => ({ box: movedBox, score: 0.99, element: anonymous }),
    })
    expect((await locate(identityOf(recorded), other)).status).toBe('not_found')
  })

  it('restricts the cascade with `only` (baselines) and validates options', async () => {
    const r = await locate(identityOf(signIn), memoryCandidateSource(recordedPage), {
      only: ['css'],
      selectors: { css: 'button#login-btn' },
    })
    expect(r.strategy).toBe('css')
    expect(r.attempts.filter((a) => a.outcome !== 'skipped').map((a) => a.strategy)).toEqual(['css'])
    await expect(locate(identityOf(signIn), memoryCandidateSource([]), { minScore: 2 })).rejects.toMatchObject({
      code: 'MATCHER_BAD_OPTION',
    })
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
})

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

describe('identical pixels do not settle what the page could not (sneat pagination "first page" chevrons, reordered)', () => {
  const chevron = (handle: string, nav: number, slot: number, y: number): CandidateElement<string> => ({
    handle,
    axRole: 'link',
    axName: '',
    tagName: 'a',
    href: 'javascript:void(0);',
    classNames: ['page-link'],
    iconClasses: ['bx-chevrons-left'],
    xpath: `/html/body/div/nav[${nav}]/ul/li[${slot}]/a`,
    boundingBox: { x: 310, y, width: 35, height: 34 },
    neighborText: ['1', '2', '3', '4'],
  })
  const recorded = identityOf(chevron('first', 1, 1, 287), { sameLabelCount: 2 })
  // the recorded pagination's items reordered: its chevron is now last; two other paginations look the same
  const page = [chevron('first', 1, 7, 287), chevron('second', 2, 1, 340), chevron('third', 3, 1, 393)]
  const withVisual = (element: CandidateElement<string>, lookAlikes: number | undefined) =>
    memoryCandidateSource(page, {
      visual: () => ({
        box: element.boundingBox as BoundingBox,
        score: 0.99,
        element,
        ...(lookAlikes === undefined ? {} : { lookAlikes }),
      }),
    })

  it('the cascade finds them alike, the best pixel peak shows one of the others: nothing is clicked', async () => {
    const r = await locate(recorded, withVisual(page[1] as CandidateElement<string>, 2))
    expect(r.element?.handle ?? null).toBe(null)
    const unknown = await locate(recorded, withVisual(page[2] as CandidateElement<string>, undefined))
    expect(unknown.element?.handle ?? null).toBe(null)
  })

  it('pixels only one element shows still settle it', async () => {
    const r = await locate(recorded, withVisual(page[0] as CandidateElement<string>, 0))
    expect(r.attempts.find((a) => a.strategy === 'visual')?.outcome).not.toBe('ambiguous')
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

describe('a strategy whose element could not be acted on', () => {
  it('is that strategy’s error, and the cascade goes on with the next one', async () => {
    const failed = new Map([['role', 'locator.click: element is not attached to the DOM'] as const])
    const r = await locate(identityOf(signIn), memoryCandidateSource(recordedPage), { failed })
    expect(r.status).toBe('found')
    expect(r.strategy).not.toBe('role')
    expect(r.element?.handle).toBe('sign-in')
    expect(r.attempts[0]).toMatchObject({
      strategy: 'role',
      outcome: 'error',
      detail: 'locator.click: element is not attached to the DOM',
    })
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
