import { type CandidateElement, memoryCandidateSource } from '@qa/matcher'
import { describeCandidateSource } from './testing/describe-candidate-source'

// The CandidateSource contract against the matcher's in-memory source, given CANDIDATE_PAGE's elements by hand (the
// Playwright source runs the same contract over Chromium in replay-contracts.e2e.test.ts).

const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height })

const elements: CandidateElement[] = [
  {
    id: 'save',
    tagName: 'button',
    axRole: 'button',
    axName: 'Save',
    textContent: 'Save',
    classNames: ['primary'],
    dataTestId: 'save-button',
    xpath: '/html/body/button[1]',
    boundingBox: box(20, 20, 120, 40),
    visible: true,
  },
  {
    id: 'q',
    tagName: 'input',
    type: 'text',
    name: 'q',
    placeholder: 'Search',
    ariaLabel: 'Search the site',
    axRole: 'textbox',
    axName: 'Search the site',
    textContent: '',
    xpath: '/html/body/input',
    boundingBox: box(160, 20, 200, 30),
    visible: true,
  },
  {
    id: 'help',
    tagName: 'a',
    href: '/help',
    axRole: 'link',
    axName: 'Help',
    textContent: 'Help',
    xpath: '/html/body/a',
    boundingBox: box(20, 80, 34, 18),
    visible: true,
  },
  {
    id: 'open1',
    tagName: 'button',
    axRole: 'button',
    axName: 'Open',
    textContent: 'Open',
    xpath: '/html/body/button[2]',
    boundingBox: box(20, 120, 120, 40),
    visible: true,
  },
  {
    id: 'open2',
    tagName: 'button',
    axRole: 'button',
    axName: 'Open',
    textContent: 'Open',
    xpath: '/html/body/button[3]',
    boundingBox: box(160, 120, 120, 40),
    visible: true,
  },
]

/** The paragraph: text, not a control (found by its text). */
const note: CandidateElement = {
  id: 'note',
  tagName: 'p',
  axRole: 'paragraph',
  axName: '',
  textContent: 'Just text',
  xpath: '/html/body/p',
  boundingBox: box(20, 180, 64, 18),
  visible: true,
}

describeCandidateSource('memoryCandidateSource', {
  async make() {
    return memoryCandidateSource([...elements, note])
  },
})
