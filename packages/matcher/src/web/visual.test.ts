import { describe, expect, it } from 'vitest'
import type { BoundingBox } from '@qa/model'
import { email, identityOf, password, signIn } from '../__tests__/login-page'
import { outcomes } from '../__tests__/web-helpers'
import { locate } from './locate'
import { memoryCandidateSource } from '../memory-candidate-source'
import type { CandidateElement } from '../score-candidate'

describe('precision over recall: the visual strategy', () => {
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
})

describe('precision over recall: pixels and a deliberate identifier', () => {
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
