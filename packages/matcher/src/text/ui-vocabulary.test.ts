import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { createLabelCheck, labelKeyAgreement, labelKeys } from './label-agreement'

const box = { x: 10, y: 10, width: 80, height: 20 }
import { comparisonKey } from './text-similarity'
import { areActionSynonyms, areRewordedPhrases, SYNONYM_AGREEMENT, UI_ACTION_SYNONYMS } from './ui-vocabulary'

const agree = (a: string, b: string) => labelKeyAgreement(comparisonKey(a), comparisonKey(b))
const phrases = UI_ACTION_SYNONYMS.flat()

describe('UI action synonyms', () => {
  it('agree across a rewording that shares no letters', () => {
    expect(agree('전송', '보내기')).toBe(SYNONYM_AGREEMENT)
    expect(agree('새로 만들기', '추가')).toBe(SYNONYM_AGREEMENT)
    expect(agree('더하기', '하나 더')).toBe(SYNONYM_AGREEMENT)
    expect(agree('Send', 'Submit')).toBe(SYNONYM_AGREEMENT)
    // a synonym never lowers what the letters already say
    expect(agree('구매하기', '구매')).toBeGreaterThan(SYNONYM_AGREEMENT)
  })

  it('keep other actions, qualified labels and the other language apart', () => {
    for (const [a, b] of [
      ['전송', '지우기'],
      ['새로 만들기', '가져오기'],
      ['더하기', '초기화'],
      ['저장', '임시 저장'],
      ['로그인', '간편 로그인'],
      ['Cancel', 'Close'],
      ['Save', '저장'],
      ['삭제', '지우기'],
    ])
      expect(agree(a as string, b as string), `${a} / ${b}`).toBeLessThan(0.5)
  })

  test.prop([fc.constantFrom(...phrases), fc.constantFrom(...phrases)], { numRuns: 200 })(
    'are symmetric and never an exact match',
    (a, b) => {
      const ka = comparisonKey(a)
      const kb = comparisonKey(b)
      expect(areActionSynonyms(ka, kb)).toBe(areActionSynonyms(kb, ka))
      expect(areActionSynonyms(ka, ka)).toBe(false)
    },
  )

  it('know where a navigation leads by another name (the wild corpus: breadcrumbs, tabs, settings menus)', () => {
    expect(agree('Home', 'Start')).toBe(SYNONYM_AGREEMENT)
    expect(agree('Dashboard', 'Overview')).toBe(SYNONYM_AGREEMENT)
    expect(agree('Account', 'Profile')).toBe(SYNONYM_AGREEMENT)
    expect(agree('Create Account', 'Add Profile')).toBe(SYNONYM_AGREEMENT)
    expect(agree('Remember me', 'Keep me signed in')).toBe(SYNONYM_AGREEMENT)
    expect(agree('홈', '메인 화면')).toBe(SYNONYM_AGREEMENT)
    // dismiss is each of close and cancel, which stay two actions; home is no other place
    expect(agree('Close', 'Dismiss')).toBe(SYNONYM_AGREEMENT)
    expect(agree('Cancel', 'Close')).toBeLessThan(0.5)
    expect(agree('Home', 'Dashboard')).toBeLessThan(0.5)
    expect(agree('Profile', 'Settings')).toBeLessThan(0.5)
  })

  it('agree when a label is reworded phrase by phrase around words that stay (sb-admin, the wild corpus)', () => {
    expect(agree('Search for...', 'Find for...')).toBe(SYNONYM_AGREEMENT)
    expect(agree('View Details', 'Show Info')).toBe(SYNONYM_AGREEMENT)
    expect(agree('상품 검색', '상품 찾기')).toBe(SYNONYM_AGREEMENT)
    // the words around the phrase must stay: another object, another look-alike, more swaps than allowed
    expect(agree('Search users', 'Find orders')).toBeLessThan(0.5)
    expect(agree('View Details', 'Archive')).toBeLessThan(0.5)
    expect(areRewordedPhrases('viewdetailsedit', 'showinfomodify', 2)).toBe(false)
    expect(areRewordedPhrases('viewdetailsedit', 'showinfomodify', 3)).toBe(true)
    // a third phrase only around an object that stays (material-dashboard's "add ADD NEW CARD")
    expect(agree('add ADD NEW CARD', 'Create CREATE CREATE CARD')).toBe(SYNONYM_AGREEMENT)
    expect(agree('add ADD NEW CARD', 'Create CREATE CREATE LIST')).toBeLessThan(0.5)
    expect(areRewordedPhrases('viewdetailsedit', 'showinfomodify')).toBe(false)
  })

  test.prop(
    [
      fc.constantFrom(...UI_ACTION_SYNONYMS.filter((g) => g.length > 1)),
      fc.stringMatching(/^[a-z ]{0,8}$/),
      fc.stringMatching(/^[a-z ]{0,8}$/),
      fc.nat(),
      fc.nat(),
    ],
    { numRuns: 200 },
  )('a phrase replaced by a synonym of its group between fixed words is a rewording', (group, head, tail, i, j) => {
    const from = group[i % group.length] as string
    const to = group[j % group.length] as string
    const a = comparisonKey(`${head} ${from} ${tail}`)
    const b = comparisonKey(`${head} ${to} ${tail}`)
    expect(areRewordedPhrases(a, b)).toBe(a !== b)
    expect(areRewordedPhrases(b, a)).toBe(a !== b)
  })

  it('lists every phrase once per group and groups never mix Hangul with Latin letters', () => {
    for (const group of UI_ACTION_SYNONYMS) {
      const keys = group.map(comparisonKey)
      expect(new Set(keys).size, group.join(', ')).toBe(keys.length)
      const hangul = group.filter((p) => /[\uac00-\ud7a3]/.test(p)).length
      expect([0, group.length], group.join(', ')).toContain(hangul)
    }
  })
})

describe('labelKeys of compound labels', () => {
  it('adds each part of a bilingual label, not counts or single letters', () => {
    expect(labelKeys({ placeholder: 'Search items (아이템 검색)' })).toEqual(
      ['searchitems아이템검색', 'searchitems', '아이템검색'].map((k) => comparisonKey(k)),
    )
    expect(labelKeys({ axName: 'Delete (3)' })).toEqual([comparisonKey('Delete (3)'), 'delete'])
    expect(agree('아이템 검색', 'Search items (아이템 검색)')).toBeLessThan(1)
  })

  it('ignores the text a container holds: a toolbar is not labelled by its buttons', () => {
    expect(labelKeys({ axRole: 'toolbar', textContent: '새로 만들기 20개 항목' })).toEqual([])
    expect(labelKeys({ axRole: 'button', textContent: '새로 만들기' })).toEqual([comparisonKey('새로 만들기')])
  })

  it("reads a <label>'s text (Chromium role LabelText): its look-alike with another word disagrees", () => {
    // gentelella form.html: the styled "Private" check is a <label> around a hidden input
    expect(labelKeys({ axRole: 'LabelText', textContent: 'Private' })).toEqual(['private'])
    const check = createLabelCheck({ axRole: 'LabelText', textContent: 'Private', tagName: 'label', boundingBox: box })
    expect(check.check({ axRole: 'LabelText', textContent: 'Archive', tagName: 'label' }).ok).toBe(false)
  })
})
