import { describe, expect, it } from 'vitest'
import {
  differInOwnWords,
  holderAgreement,
  createLabelCheck,
  idStemAgreement,
  insertedWordsAgreement,
  isGeneratedId,
  labelKeyAgreement,
  labelKeys,
  SAME_LABEL_AGREEMENT,
} from './label-agreement'
import { countExactLabel, countSameLabel, sameExactLabel } from './label-count'
import { comparisonKey } from './text-similarity'

const agree = (a: string, b: string) => labelKeyAgreement(comparisonKey(a), comparisonKey(b))

describe('labelKeyAgreement', () => {
  it('keeps rewordings that add words after the label', () => {
    expect(agree('로그인', '로그인하기')).toBeGreaterThanOrEqual(0.8)
    expect(agree('Save', 'Save changes')).toBeGreaterThanOrEqual(0.7)
    expect(agree('Sign in', 'Log in')).toBeGreaterThanOrEqual(0.5)
    expect(agree('Sign in', 'Sign In')).toBe(1)
  })

  it('treats a qualifier put in front as a different action, and unrelated labels as disagreeing', () => {
    expect(agree('저장', '임시 저장')).toBeLessThan(0.5)
    expect(agree('Save', 'Autosave')).toBeLessThan(0.5)
    expect(agree('로그인', '임시 저장')).toBeLessThan(0.5)
    expect(agree('로그인', '간편 로그인')).toBeLessThan(0.5)
  })

  it('reads shared letters as no shared word (a look-alike "Duplicate" is not the radio "Private")', () => {
    expect(agree('Private', 'Duplicate')).toBeLessThan(0.5)
    expect(agree('Private', 'Print')).toBeLessThan(0.5)
    // spelling variants and labels sharing a long run still agree
    expect(agree('Colour', 'Color')).toBeGreaterThanOrEqual(0.75)
    expect(agree('Add to cart', 'Add to bag')).toBeGreaterThanOrEqual(0.5)
    expect(agree('임시 저장', '임시 보관')).toBeGreaterThanOrEqual(0.5)
  })
})

describe('words put between the recorded ones', () => {
  const words = (t: string) => t.split(' ').map((w) => comparisonKey(w))
  const check = (recorded: string, now: string) =>
    createLabelCheck({
      tagName: 'a',
      axRole: 'link',
      axName: recorded,
      textContent: recorded,
      boundingBox: { x: 0, y: 0, width: 120, height: 40 },
    }).check({
      tagName: 'a',
      axRole: 'link',
      axName: now,
      textContent: now,
    })

  it('keep a reworded label (agency "TELL ME MORE" → "TELL ME SHOW MORE") that letters alone reject', () => {
    expect(agree('TELL ME MORE', 'TELL ME SHOW MORE')).toBeLessThan(0.5)
    expect(insertedWordsAgreement(words('tell me more'), words('tell me show more'))).toBe(0.75)
    expect(check('TELL ME MORE', 'TELL ME SHOW MORE')).toMatchObject({ ok: true, agreement: 0.75 })
    expect(check('장바구니 담기', '장바구니 바로 담기').ok).toBe(true)
  })

  it('do not make one word, a moved first or last word, or more new words than kept ones agree', () => {
    expect(insertedWordsAgreement(words('save'), words('save all'))).toBe(0)
    expect(insertedWordsAgreement(words('delete user'), words('quick delete user'))).toBe(0)
    expect(insertedWordsAgreement(words('delete user'), words('delete user now'))).toBe(0)
    expect(insertedWordsAgreement(words('sign in'), words('sign up and log in'))).toBe(0)
    expect(check('Sign in', 'Sign up and log in').ok).toBe(false)
    expect(check('Add card', 'Add new card').agreement).toBeGreaterThanOrEqual(2 / 3)
  })
})

describe('isGeneratedId', () => {
  it('tells build-generated ids from chosen ones', () => {
    for (const id of [':r1:', 'css-8f3a2b', 'sc-1x9f', '123', 'el-4096', '3f2c9a1e-0000-4000-8000-1234567890ab'])
      expect(isGeneratedId(id), id).toBe(true)
    for (const id of ['login', 'login-btn', 'temp', 'card3-edit', 'step2', 'user_email'])
      expect(isGeneratedId(id), id).toBe(false)
  })
})

describe('createLabelCheck', () => {
  const identity = {
    tagName: 'button',
    axRole: 'button',
    axName: '저장',
    textContent: '저장',
    id: 'save',
    boundingBox: { x: 100, y: 100, width: 80, height: 32 },
    neighborText: ['임시 저장', '취소'],
  }
  it('rejects a candidate whose label disagrees, unless a deliberate identifier agrees exactly', () => {
    const check = createLabelCheck(identity)
    expect(check.check({ axName: '취소', textContent: '취소' }).ok).toBe(false)
    expect(check.check({ axName: '취소', id: 'save' })).toMatchObject({ ok: true, identifier: 'id' })
    expect(check.check({ axName: '저장하기' }).ok).toBe(true)
    // a generated id proves nothing
    const generated = createLabelCheck({ ...identity, id: 'css-8f3a2b' })
    expect(generated.check({ axName: '취소', id: 'css-8f3a2b' }).ok).toBe(false)
  })

  it('rejects a recorded neighbour (its label is the text that stood next to the target)', () => {
    // 'Save all' agrees with 'Save' (words added after it) but stood next to it when recorded
    const save = { ...identity, axName: 'Save', textContent: 'Save', neighborText: ['Save all', 'Cancel'] }
    expect(createLabelCheck(save).check({ axName: 'Save all' })).toMatchObject({ ok: false })
    expect(createLabelCheck({ ...save, neighborText: ['Cancel'] }).check({ axName: 'Save all' }).ok).toBe(true)
    expect(createLabelCheck(identity).check({ axName: '임시 저장', textContent: '임시 저장' }).ok).toBe(false)
  })

  it('reads an icon-font glyph as the label of an icon button, and the words beside a glyph as the label', () => {
    // Chromium names <button><i class="fas fa-search"></i></button> "\uf002" (the ::before content)
    const icon = { tagName: 'button', axRole: 'button', axName: '\uf002', boundingBox: identity.boundingBox }
    expect(createLabelCheck(icon).check({ axName: '\uf002', tagName: 'button' }).ok).toBe(true)
    // a look-alike with a star glyph, or saying "Archive", is another control
    expect(createLabelCheck(icon).check({ axName: '\uf005', tagName: 'button' }).ok).toBe(false)
    expect(createLabelCheck(icon).check({ axName: 'Archive', tagName: 'button' }).ok).toBe(false)
    const messages = { ...icon, axName: '\uf0e0 Messages' }
    expect(createLabelCheck(messages).check({ axName: 'Messages', tagName: 'button' }).ok).toBe(true)
  })

  it('compares neighbours by their words: a neighbour that gained a word still stands beside it', () => {
    // gentelella's search field, pushed 300 px down by look-alikes put before every control and option
    const search = {
      tagName: 'input',
      axRole: 'searchbox',
      axName: 'Search',
      boundingBox: { x: 871, y: 615, width: 367, height: 36 },
      neighborText: ['Search', 'Country Latvia Estonia Lithuania', 'Tags (multi) design engineering'],
    }
    const moved = {
      tagName: 'input',
      axRole: 'searchbox',
      axName: 'Search',
      boundingBox: { x: 934, y: 911, width: 305, height: 36 },
      neighborText: [
        'Print',
        'Search',
        'Duplicate Country Duplicate Latvia Estonia Lithuania',
        'Duplicate Tags (multi) Archive design engineering',
      ],
    }
    expect(createLabelCheck(search).context(moved)).toBeGreaterThanOrEqual(0.3)
    // a field among other words entirely is still elsewhere
    const other = { ...moved, neighborText: ['Billing address', 'Postal code City'] }
    expect(createLabelCheck(search).context(other)).toBeLessThan(0.3)
  })

  it('is off with minLabelScore 0', () => {
    expect(createLabelCheck(identity, 0).check({ axName: '취소' }).ok).toBe(true)
    expect(createLabelCheck({ ...identity, axName: null, textContent: null }, 0).check({ axName: 'x' }).ok).toBe(true)
  })

  it('an element recorded without any label: unlabelled candidates pass, a labelled one is another control', () => {
    // the wild corpus: an icon-only ☰ button removed, a look-alike titled "Archive" left in its place
    const unlabelled = { ...identity, axName: null, textContent: null, ariaLabel: null, placeholder: null }
    const check = createLabelCheck(unlabelled)
    expect(check.check({ axName: '', tagName: 'button' }).ok).toBe(true)
    const lookAlike = check.check({ axName: 'Archive', tagName: 'button' })
    expect(lookAlike.ok).toBe(false)
    expect(lookAlike.reason).toMatch(/had none/)
    // a deliberate identifier still wins: the recorded data-testid carried by the labelled element
    expect(
      createLabelCheck({ ...unlabelled, dataTestId: 'menu' }).check({ axName: 'Menu', dataTestId: 'menu' }).ok,
    ).toBe(true)
  })

  it('scores the context: neighbours, place and the recorded id', () => {
    const check = createLabelCheck(identity)
    expect(check.context({ neighborText: ['임시 저장', '취소'], boundingBox: identity.boundingBox, id: 'save' })).toBe(
      1,
    )
    const elsewhere = check.context({
      neighborText: ['Orders 2'],
      boundingBox: { x: 900, y: 700, width: 80, height: 32 },
    })
    expect(elsewhere).toBeLessThan(0.1)
    expect(
      createLabelCheck({ tagName: 'div', boundingBox: { x: 0, y: 0, width: 0, height: 0 } }).context({}),
    ).toBeNull()
  })
})

describe('weak labels with an unrelated id', () => {
  it('rejects 임시 보관 for 임시 저장 when its id is unrelated, keeps Log in for Sign in when the id was renamed', () => {
    const draft = {
      tagName: 'button',
      axName: '임시 저장',
      id: 'btn-1-1',
      boundingBox: { x: 0, y: 0, width: 9, height: 9 },
    }
    expect(createLabelCheck(draft).check({ axName: '임시 보관', id: 'temp' })).toMatchObject({ ok: false })
    expect(createLabelCheck(draft).check({ axName: '임시 보관' }).ok).toBe(true)
    const signIn = { tagName: 'button', axName: 'Sign in', id: 'login-btn', boundingBox: draft.boundingBox }
    expect(createLabelCheck(signIn).check({ axName: 'Log in', id: 'login-button' }).ok).toBe(true)
  })
})

describe('countSameLabel (what the recorder stores as sameLabelCount)', () => {
  const save = {
    tagName: 'button',
    axRole: 'button',
    axName: '저장',
    xpath: '/a',
    boundingBox: { x: 0, y: 0, width: 80, height: 30 },
  }
  it('counts other visible elements with an agreeing label, not the element itself or chance agreements', () => {
    const self = { ...save, boundingBox: { ...save.boundingBox, x: 0.3 } }
    const settings = { axRole: 'link', axName: '설정', xpath: '/b' }
    expect(countSameLabel(save, save, [self, settings])).toBe(0)
    expect(countSameLabel(save, save, [self, { axName: '저장하기', xpath: '/c' }])).toBe(1)
    expect(countSameLabel(save, save, [self, { axName: '저장', xpath: '/d', visible: false }])).toBe(0)
    expect(countSameLabel({ ...save, axName: null }, save, [self])).toBe(0)
  })
  it("does not count the element itself when its box moved a pixel or more since it was read (sneat's buttons lift under the pointer)", () => {
    const lifted = { ...save, boundingBox: { ...save.boundingBox, y: 1.1 } }
    const twin = { ...save, xpath: '/z', boundingBox: { ...save.boundingBox, x: 300 } }
    expect(countSameLabel(save, save, [lifted, twin])).toBe(1)
    // two elements at one XPath (a list re-rendered between reads): the box tells which one it is
    const sameXpath = { ...twin, xpath: '/a' }
    expect(countSameLabel(save, save, [lifted, sameXpath])).toBe(2)
  })
  it('counts only controls of the same kind: a checkbox "Checked" does not share a radio\'s label', () => {
    const radio = { tagName: 'input', axRole: 'radio', axName: 'Checked', xpath: '/r', boundingBox: save.boundingBox }
    const checkbox = { tagName: 'input', axRole: 'checkbox', axName: 'Checked', xpath: '/c' }
    expect(countSameLabel(radio, radio, [checkbox])).toBe(0)
    expect(
      countSameLabel(radio, radio, [
        { ...checkbox, axRole: 'switch' },
        { ...checkbox, axRole: 'radio' },
      ]),
    ).toBe(1)
    // a link and a button are one kind (a redesign restyles one as the other); an unknown role competes
    expect(countSameLabel(save, save, [{ axRole: 'link', axName: '저장', xpath: '/l' }])).toBe(1)
    expect(countSameLabel(save, save, [{ axName: '저장', xpath: '/u' }])).toBe(1)
    expect(countSameLabel(save, save, [{ axRole: 'textbox', axName: '저장', xpath: '/t' }])).toBe(0)
  })
})

describe('holders of a label are not counted by a suffix they share (DataTables sort headers)', () => {
  // startbootstrap-sb-admin 6.0.2's tables.html: DataTables 1.10 gives each sortable header an aria-label
  const header = (name: string, x: number) => ({
    tagName: 'th',
    axRole: 'columnheader',
    axName: `${name}: activate to sort column ascending`,
    ariaLabel: `${name}: activate to sort column ascending`,
    textContent: name,
    xpath: `/html/body/table/thead/tr/th[${x}]`,
    boundingBox: { x: 100 * x, y: 300, width: 100, height: 40 },
  })
  const names = ['Name', 'Position', 'Office', 'Age', 'Start date', 'Salary']
  const headers = names.map((n, i) => header(n, i + 1))
  const office = headers[2] as (typeof headers)[0]

  it('counts none of the five other headers as holders of "Office: activate to sort column ascending"', () => {
    expect(differInOwnWords(office.axName, 'Name: activate to sort column ascending')).toBe(true)
    // the column sorted first says "descending": no word in common at either end any more
    expect(differInOwnWords(office.axName, 'Name: activate to sort column descending')).toBe(true)
    const sorted = { ...(headers[0] as (typeof headers)[0]), axName: 'Name: activate to sort column descending' }
    expect(countSameLabel(office, office, [sorted, ...headers.slice(1)])).toBe(0)
    expect(holderAgreement(office, headers[0] as (typeof headers)[0])).toBeLessThan(SAME_LABEL_AGREEMENT)
    expect(countSameLabel(office, office, headers)).toBe(0)
    // the same header in the next release (simple-datatables: a link "Office" in the th) still holds it
    expect(holderAgreement(office, { tagName: 'a', axRole: 'link', axName: 'Office', textContent: 'Office' })).toBe(1)
  })

  it('still counts labels that differ in a count, a rewording, words added, or a twin with the very label', () => {
    expect(differInOwnWords('Inbox (3)', 'Inbox (5)')).toBe(false)
    expect(differInOwnWords('Delete row 1', 'Delete row 2')).toBe(false)
    expect(differInOwnWords('Save', 'Save changes')).toBe(false)
    expect(differInOwnWords('Tell me more', 'Tell me show more')).toBe(false)
    expect(differInOwnWords('Search for...', 'Find for...')).toBe(false)
    expect(differInOwnWords('Colour settings', 'Color settings')).toBe(false)
    expect(countSameLabel(office, office, [...headers, { ...office, xpath: '/other' }])).toBe(1)
    const save = { tagName: 'button', axRole: 'button', axName: 'Save', xpath: '/a', boundingBox: office.boundingBox }
    expect(countSameLabel(save, save, [{ axRole: 'button', axName: 'Save changes', xpath: '/b' }])).toBe(1)
    expect(countSameLabel(save, save, [{ axRole: 'button', axName: 'Save draft', xpath: '/c' }])).toBe(1)
  })

  it('tells apart labels that share a prefix but name other things', () => {
    expect(differInOwnWords('Export to PDF', 'Export to Excel')).toBe(true)
    expect(differInOwnWords('임시 저장', '임시 보관')).toBe(true)
  })
})

describe('idStemAgreement: a renamed id that keeps the recorded one as its stem', () => {
  it('counts an id with a suffix or version after the recorded one, not another id or a generated one', () => {
    expect(idStemAgreement('btnNavbarSearch', 'btnNavbarSearch')).toBe(1)
    expect(idStemAgreement('btnNavbarSearch', 'btnNavbarSearch-v2')).toBeGreaterThan(0.8)
    expect(idStemAgreement('btnNavbarSearch', 'sidebarToggle')).toBe(0)
    expect(idStemAgreement('btnNavbarSearch', 'navbarSearch')).toBe(0)
    expect(idStemAgreement('btn', 'btn-save')).toBe(0)
    expect(idStemAgreement('login', 'login-8f3a2b')).toBe(0)
    expect(idStemAgreement('login', null)).toBe(0)
  })

  it('lets a renamed id keep an icon button in its context when it moved far (sb-admin search button)', () => {
    const check = createLabelCheck({
      tagName: 'button',
      axRole: 'button',
      id: 'btnNavbarSearch',
      iconClasses: ['fa-magnifying-glass'],
      boundingBox: { x: 1150, y: 9, width: 42, height: 38 },
      neighborText: ['Start Bootstrap'],
    })
    const moved = {
      tagName: 'button',
      axRole: 'button',
      boundingBox: { x: 698, y: 47, width: 42, height: 38 },
      neighborText: ['Start Bootstrap Archive Print'],
    }
    const renamed = check.context({ ...moved, id: 'btnNavbarSearch-x1' }) ?? 0
    const other = check.context({ ...moved, id: 'sidebarToggle' }) ?? 0
    expect(renamed).toBeGreaterThanOrEqual(0.3)
    expect(other).toBeLessThan(0.3)
  })
})

describe('ligature icons (Material Icons draw a word as a glyph)', () => {
  const recorded = {
    tagName: 'a',
    axRole: 'link',
    axName: 'Content_paste Table List',
    textContent: 'Content_paste Table List',
    iconClasses: ['material-icons:content_paste'],
    boundingBox: { x: 15, y: 210, width: 230, height: 50 },
  }
  it("the words without the icon's word are a label too: 'content_paste Table List' agrees with 'table_view Tables'", () => {
    const now = {
      tagName: 'a',
      axRole: 'link',
      axName: 'table_view Tables',
      textContent: 'table_view Tables',
      iconClasses: ['material-icons:table_view'],
    }
    expect(labelKeys(recorded)).toEqual(['contentpastetablelist', 'tablelist'])
    expect(createLabelCheck(recorded).check(now)).toMatchObject({ ok: true })
    // without the icon's word known, the words disagree (what the recorder stored before)
    const bare = { ...recorded, iconClasses: [] }
    expect(createLabelCheck(bare).check({ ...now, iconClasses: [] }).ok).toBe(false)
  })

  it("keeps the whole label: 'person User Profile' still agrees with 'person Profile'", () => {
    const profile = {
      ...recorded,
      axName: 'person User Profile',
      textContent: 'person User Profile',
      iconClasses: ['material-icons:person'],
    }
    const now = { tagName: 'a', axRole: 'link', axName: 'person Profile', iconClasses: ['material-icons:person'] }
    expect(createLabelCheck(profile).check(now).ok).toBe(true)
  })

  it('an icon-only control keeps its word as its label', () => {
    const bell = { tagName: 'button', axName: 'notifications', iconClasses: ['material-icons:notifications'] }
    expect(labelKeys(bell)).toEqual(['notifications'])
  })
})

describe('sameExactLabel and countExactLabel', () => {
  const sidebar = {
    tagName: 'a',
    axRole: 'link',
    axName: 'dashboard Dashboard',
    textContent: 'dashboard Dashboard',
    xpath: '/s',
    boundingBox: { x: 15, y: 90, width: 230, height: 50 },
  }
  it('counts only elements with the very same whole label, not the ones that merely agree with it', () => {
    const navbarIcon = { axRole: 'link', axName: 'dashboard', textContent: 'dashboard', xpath: '/n' }
    expect(sameExactLabel(sidebar, { axName: 'Dashboard  DASHBOARD!' })).toBe(true)
    expect(sameExactLabel(sidebar, navbarIcon)).toBe(false)
    expect(countSameLabel(sidebar, sidebar, [sidebar, navbarIcon])).toBe(1)
    expect(countExactLabel(sidebar, sidebar, [sidebar, navbarIcon])).toBe(0)
    expect(countExactLabel(sidebar, sidebar, [sidebar, navbarIcon, { ...sidebar, xpath: '/t' }])).toBe(1)
  })
})
