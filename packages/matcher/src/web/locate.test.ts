import { describe, expect, it } from 'vitest'
import { cancel, email, forgot, identityOf, password, recordedPage, signIn } from '../__tests__/login-page'
import { outcomes } from '../__tests__/web-helpers'
import { toHealingRecord } from '../healing-record'
import { locate } from './locate'
import { memoryCandidateSource } from '../memory-candidate-source'
import type { CandidateElement } from '../score-candidate'

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
})

describe('locate: options', () => {
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
