import { describe, expect, it } from 'vitest'
import type { ElementIdentity } from '@qa/model'
import { countFieldsInLandmark, fieldKind, landmarkOf, onlyFieldOfItsLandmark } from './landmark-field'
import { locate } from './locate'
import { memoryCandidateSource } from '../memory-candidate-source'
import type { CandidateElement } from '../score-candidate'

// Material Dashboard 2.1.0's navbar search (examples/tables.html) and its place in 3.1.0 (pages/tables.html):
// the placeholder "Search..." became an unassociated floating label "Type here..."
const recorded: ElementIdentity = {
  tagName: 'input',
  type: 'text',
  axRole: 'textbox',
  placeholder: 'Search...',
  classNames: ['form-control'],
  xpath: '/html/body/div/div[2]/nav/div/div[2]/form/div/input',
  boundingBox: { x: 900, y: 20, width: 180, height: 36 },
  neighborText: ['Table List'],
  sameLabelCount: 0,
  fieldsInLandmark: 1,
}
const search3: CandidateElement = {
  tagName: 'input',
  type: 'text',
  axRole: 'textbox',
  classNames: ['form-control'],
  xpath: '/html/body/main/nav/div/div[2]/div/div/input',
  boundingBox: { x: 860, y: 30, width: 200, height: 40 },
  neighborText: ['Type here...', 'Online Builder'],
}
const sidebarLink: CandidateElement = {
  tagName: 'a',
  axRole: 'link',
  axName: 'Tables',
  textContent: 'Tables',
  href: '../pages/tables.html',
  xpath: '/html/body/aside/div[2]/ul/li[2]/a',
  boundingBox: { x: 20, y: 200, width: 220, height: 40 },
}
const pageFields: CandidateElement[] = [
  sidebarLink,
  {
    tagName: 'input',
    type: 'checkbox',
    xpath: '/html/body/div[2]/div/div[2]/input',
    boundingBox: { x: 1000, y: 600, width: 20, height: 20 },
  },
]

describe('fieldKind and landmarkOf', () => {
  it('tells selects, textareas and text inputs, and the nearest landmark above an element in its XPath', () => {
    expect(fieldKind({ tagName: 'input', type: 'search' })).toBe('text')
    expect(fieldKind({ tagName: 'input' })).toBe('text')
    expect(fieldKind({ tagName: 'input', type: 'password' })).toBeNull()
    expect(fieldKind({ tagName: 'input', type: 'checkbox' })).toBeNull()
    expect(fieldKind({ tagName: 'SELECT' })).toBe('select')
    expect(fieldKind({ tagName: 'button' })).toBeNull()
    expect(landmarkOf('/html/body/div/nav[2]/form/input')).toEqual({ tag: 'nav', path: '/html/body/div/nav[2]' })
    expect(landmarkOf('/html/body/main/div/nav/ul/li/input')?.path).toBe('/html/body/main/div/nav')
    expect(landmarkOf('/html/body/div/form/input')).toBeNull()
    // the element itself is not its own landmark
    expect(landmarkOf('/html/body/nav')).toBeNull()
  })

  it('counts the fields of its kind in its own landmark only, itself included', () => {
    const here = { tagName: 'input', type: 'text', xpath: '/html/body/nav/form/input' }
    const list: CandidateElement[] = [
      here,
      { tagName: 'select', xpath: '/html/body/nav/form/select' },
      { tagName: 'input', type: 'text', xpath: '/html/body/main/form/input' },
      { tagName: 'input', type: 'text', xpath: '/html/body/nav[2]/input' },
    ]
    expect(countFieldsInLandmark(here, list)).toBe(1)
    expect(
      countFieldsInLandmark(here, [...list, { tagName: 'input', type: 'email', xpath: '/html/body/nav/div/input' }]),
    ).toBe(2)
    expect(countFieldsInLandmark(here, [...list, { ...here, xpath: '/html/body/nav/x', visible: false }])).toBe(1)
    expect(countFieldsInLandmark({ tagName: 'a', xpath: '/html/body/nav/a' }, list)).toBeNull()
  })

  it('finds the one field of the kind in a landmark of the same tag, and nothing when there are two or none', () => {
    expect(onlyFieldOfItsLandmark(recorded, [search3, ...pageFields])).toBe(search3)
    const second = { ...search3, xpath: '/html/body/main/nav/div/div[2]/div/div[2]/input' }
    expect(onlyFieldOfItsLandmark(recorded, [search3, second, ...pageFields])).toBeNull()
    expect(onlyFieldOfItsLandmark(recorded, pageFields)).toBeNull()
    // a field of the page's main part is not the navbar's
    expect(onlyFieldOfItsLandmark(recorded, [{ ...search3, xpath: '/html/body/main/div/input' }])).toBeNull()
    // unknown or several when recorded: the rule says nothing
    expect(onlyFieldOfItsLandmark({ ...recorded, fieldsInLandmark: 2 }, [search3])).toBeNull()
    expect(onlyFieldOfItsLandmark({ ...recorded, fieldsInLandmark: null }, [search3])).toBeNull()
  })
})

describe('locate: the landmark rule', () => {
  it('finds the navbar search field whose placeholder became "Type here..." by being the only text field of the navbar', async () => {
    const result = await locate(recorded, memoryCandidateSource([search3, ...pageFields]))
    expect(result.element).toBe(search3)
    expect(result.strategy).toBe('similarity')
    expect(result.attempts.find((a) => a.strategy === 'similarity')?.detail).toMatch(
      /only text field in a nav landmark/,
    )
  })

  it('refuses when the navbar has two text fields, none, or another element carries the recorded label', async () => {
    const second = {
      ...search3,
      xpath: '/html/body/main/nav/div/div[2]/div/div[2]/input',
      boundingBox: { x: 600, y: 30, width: 200, height: 40 },
    }
    expect((await locate(recorded, memoryCandidateSource([search3, second, ...pageFields]))).element).toBeUndefined()
    expect((await locate(recorded, memoryCandidateSource(pageFields))).element).toBeUndefined()
    const movedSearch: CandidateElement = {
      tagName: 'input',
      type: 'text',
      placeholder: 'Search...',
      xpath: '/html/body/main/div/form/input',
      boundingBox: { x: 300, y: 400, width: 200, height: 40 },
    }
    const found = await locate(recorded, memoryCandidateSource([search3, movedSearch, ...pageFields]))
    expect(found.element).not.toBe(search3)
    // a look-alike put in its place that says something else (the wild bench's removal: "Archive") is not it
    const archive = { ...search3, placeholder: 'Archive' }
    expect((await locate(recorded, memoryCandidateSource([archive, ...pageFields]))).element).toBeUndefined()
    const unlabelled = { ...recorded, placeholder: null, sameLabelCount: null }
    expect((await locate(unlabelled, memoryCandidateSource([archive, ...pageFields]))).element).toBeUndefined()
    expect((await locate(unlabelled, memoryCandidateSource([search3, ...pageFields]))).element).toBe(search3)
    // without the recorded count (an older recording) the rule does not apply
    const old = { ...recorded, fieldsInLandmark: undefined }
    expect((await locate(old, memoryCandidateSource([search3, ...pageFields]))).element).toBeUndefined()
  })
})

describe('locate: the landmark rule keeps a word of the recorded label', () => {
  it('finds SB Admin 7\'s page-size select "entries per page" for 6\'s "Show entries", the only select of main', async () => {
    const select: ElementIdentity = {
      tagName: 'select',
      axRole: 'combobox',
      axName: 'Show entries',
      name: 'dataTable_length',
      xpath: '/html/body/div/div[2]/main/div/div[2]/div[2]/div/div/div[1]/div[1]/div/label/select',
      boundingBox: { x: 80, y: 300, width: 60, height: 30 },
      sameLabelCount: 0,
      fieldsInLandmark: 1,
    }
    const now: CandidateElement = {
      tagName: 'select',
      axRole: 'combobox',
      axName: 'entries per page',
      classNames: ['datatable-selector'],
      xpath: '/html/body/div/div[2]/main/div/div[2]/div[2]/div/div[1]/div[1]/label/select',
      boundingBox: { x: 40, y: 320, width: 70, height: 38 },
    }
    expect((await locate(select, memoryCandidateSource([now, ...pageFields]))).element).toBe(now)
    const other = { ...now, axName: 'Export format' }
    expect((await locate(select, memoryCandidateSource([other, ...pageFields]))).element).toBeUndefined()
  })
})
