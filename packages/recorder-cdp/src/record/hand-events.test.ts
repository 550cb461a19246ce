import type { Action } from '@qa/model'
import { describe, expect, it } from 'vitest'
import type { PageElementDescription } from '../injected/page-scripts'
import {
  clickOfPointerDown,
  continueTyping,
  dialogOwner,
  doubleClickDescription,
  doubleClickPair,
  dragDescription,
  draggedDescription,
  dragOwner,
  filesDescription,
  filesOwner,
  historyKeysBefore,
  historyStep,
  keyStep,
  masksAround,
  caretsAround,
  nextInput,
  type OpenTyping,
  reachedInput,
  replacesClickBefore,
  scrollStep,
  typingKey,
  typingPoint,
} from './hand-events'

const step = (actionType: Action['actionType'], x = 0, y = 0, more: Partial<Action> = {}): Action => ({
  timestamp: 0,
  actionType,
  x,
  y,
  description: `${actionType} step`,
  ...more,
})

const description = (more: Partial<PageElementDescription>): PageElementDescription => ({
  tagName: 'div',
  id: null,
  classNames: [],
  iconClasses: [],
  name: null,
  type: null,
  placeholder: null,
  ariaLabel: null,
  dataTestId: null,
  role: null,
  implicitRole: null,
  accessibleName: null,
  textContent: null,
  href: null,
  xpath: '/html/body/div',
  css: 'div',
  neighborText: [],
  framePath: [],
  shadowPath: [],
  box: { x: 0, y: 0, width: 10, height: 10 },
  visible: true,
  enabled: true,
  isPassword: false,
  value: null,
  groupPosition: null,
  ...more,
})

describe('clickOfPointerDown', () => {
  it('makes a left press a click, a second press a double click, the right button a right click', () => {
    expect(clickOfPointerDown({ button: 0, detail: 1, x: 10.4, y: 20.6 })).toEqual({
      actionType: 'click',
      button: 'left',
      x: 10,
      y: 21,
    })
    expect(clickOfPointerDown({ button: 0, detail: 2, x: 5, y: 5 }).actionType).toBe('double_click')
    // a right press stays a right click whatever its count
    expect(clickOfPointerDown({ button: 2, detail: 2, x: 5, y: 5 })).toEqual({
      actionType: 'right_click',
      button: 'right',
      x: 5,
      y: 5,
    })
    expect(clickOfPointerDown({ button: 1, detail: 1, x: 5, y: 5 })).toEqual({
      actionType: 'click',
      button: 'middle',
      x: 5,
      y: 5,
    })
  })

  it('lets a double click take the place of the click just before it, and only of a click', () => {
    expect(replacesClickBefore('double_click', step('click'))).toBe(true)
    expect(replacesClickBefore('double_click', step('hover'))).toBe(false)
    expect(replacesClickBefore('double_click', undefined)).toBe(false)
    expect(replacesClickBefore('click', step('click'))).toBe(false)
  })
})

describe('drags', () => {
  const click = step('click', 10, 10)
  const right = step('right_click', 50, 50)
  const pressed = new Map<Action, number>([
    [click, 1_000],
    [right, 2_000],
  ])
  const pageDownAt = new Map([
    [990, 1_000],
    [1_990, 2_000],
  ])

  it('gives a drag to the click pressed at its pointer-down, by the page time stamped on arrival', () => {
    expect(dragOwner([click, right], (a) => pressed.get(a), pageDownAt, 990)).toBe(click)
  })

  it('leaves a right click a right click, and a drag of an unknown press to nobody', () => {
    expect(dragOwner([click, right], (a) => pressed.get(a), pageDownAt, 1_990)).toBeUndefined()
    expect(dragOwner([click, right], (a) => pressed.get(a), pageDownAt, 500)).toBeUndefined()
  })

  it('names what was dragged by the first described element with a name of its own, else the one pressed', () => {
    const plain = description({ tagName: 'span' })
    const card = description({ id: 'card-3' })
    expect(draggedDescription([plain, card])).toBe(card)
    expect(draggedDescription([plain])).toBe(plain)
    expect(draggedDescription([])).toBeUndefined()
  })

  it('describes a drag from what its click named to the drop target or the drop point', () => {
    expect(dragDescription('Click listitem Card 3', 'list Done', 400, 120)).toBe('Drag listitem Card 3 to list Done')
    expect(dragDescription('Click (10, 10)', null, 400, 120)).toBe('Drag (10, 10) to (400, 120)')
  })
})

describe('double clicks the page saw', () => {
  it('merge the last two clicks when both are within 8 px of it', () => {
    const first = step('click', 100, 100)
    const second = step('click', 102, 99)
    expect(doubleClickPair([step('navigate'), first, second], { x: 108, y: 92 })).toEqual({ first, second })
  })

  it('change nothing when a press is farther, or a step between is no click', () => {
    expect(doubleClickPair([step('click', 100, 100), step('click', 100, 100)], { x: 109, y: 100 })).toBeNull()
    expect(doubleClickPair([step('click', 100, 100), step('key_press', 100, 100)], { x: 100, y: 100 })).toBeNull()
    expect(doubleClickPair([step('click', 100, 100)], { x: 100, y: 100 })).toBeNull()
  })

  it('rename the click a double click', () => {
    expect(doubleClickDescription('Click button Open')).toBe('Double-click button Open')
    expect(doubleClickDescription('Clicked nothing')).toBe('Clicked nothing')
  })
})

describe('chosen files', () => {
  it('go with the last click-like step or key press before them', () => {
    const opener = step('click', 5, 5)
    const key = step('key_press', 0, 0, { key: 'Enter' })
    expect(filesOwner([opener, step('scroll')], ['a.txt'])).toBe(opener)
    expect(filesOwner([opener, key, step('scroll')], ['a.txt'])).toBe(key)
    expect(filesOwner([step('scroll')], ['a.txt'])).toBeUndefined()
    expect(filesOwner([opener], [])).toBeUndefined()
  })

  it('are named in the step description', () => {
    expect(filesDescription('Click button Upload', ['a.txt', '사진.png'])).toBe(
      'Click button Upload and choose "a.txt", "사진.png"',
    )
  })
})

describe('typing', () => {
  const open = (action: Action, secret = false): OpenTyping => ({ action, key: '50,60@https://x.test/', secret })

  it("names a field by the page's own name for it on its page, else by its rounded point", () => {
    expect(typingKey({ x: 49.6, y: 60.2 }, 'https://x.test/')).toBe('50,60@https://x.test/')
    // the same field moved between two inputs (a dialog sliding in): one name
    const moved = [
      { x: 49.6, y: 60.2, fieldId: 'k3f9-2' },
      { x: 49.6, y: 112.8, fieldId: 'k3f9-2' },
    ].map((event) => typingKey(event, 'https://x.test/'))
    expect(moved).toEqual(['#k3f9-2@https://x.test/', '#k3f9-2@https://x.test/'])
    expect(typingKey({ x: 49.6, y: 60.2, fieldId: 'k3f9-3' }, 'https://x.test/')).not.toBe(moved[0])
  })

  it('goes on in the open step while it is the last one and the field is the same', () => {
    const typed = step('type', 50, 60, { text: 'hel' })
    const key = '50,60@https://x.test/'
    expect(continueTyping(open(typed), typed, key, { value: 'hello', isPassword: false })).toEqual({
      kind: 'continue',
      text: 'hello',
    })
  })

  it('starts a new step in another field, on another page, or after another step', () => {
    const typed = step('type', 50, 60, { text: 'hel' })
    const input = { value: 'hello', isPassword: false }
    expect(continueTyping(open(typed), typed, '70,60@https://x.test/', input)).toEqual({ kind: 'new' })
    expect(continueTyping(open(typed), typed, '50,60@https://x.test/next', input)).toEqual({ kind: 'new' })
    expect(continueTyping(open(typed), step('click'), '50,60@https://x.test/', input)).toEqual({ kind: 'new' })
    expect(continueTyping(null, typed, '50,60@https://x.test/', input)).toEqual({ kind: 'new' })
  })

  it('keeps a secret masked, also once the field shows it in clear', () => {
    const typed = step('type', 50, 60, { text: '********' })
    const key = '50,60@https://x.test/'
    expect(continueTyping(open(typed, true), typed, key, { value: 'hunter2', isPassword: false })).toEqual({
      kind: 'continue',
      text: null,
    })
    expect(continueTyping(open(typed), typed, key, { value: 'hunter2', isPassword: true })).toEqual({
      kind: 'continue',
      text: null,
    })
  })

  it("records typing at the field's centre when the field is known, else at the reported point", () => {
    expect(typingPoint({ x: 10, y: 20, width: 101, height: 30 }, { x: 1, y: 2 })).toEqual({ x: 61, y: 35 })
    expect(typingPoint(undefined, { x: 12.5, y: 7.4 })).toEqual({ x: 13, y: 7 })
  })
})

describe('keys, scrolls and history moves', () => {
  it('make a key press and a scroll step in whole pixels', () => {
    expect(keyStep({ key: 'Escape' })).toEqual({
      actionType: 'key_press',
      x: 0,
      y: 0,
      key: 'Escape',
      description: 'Press Escape',
    })
    expect(scrollStep({ x: 100.4, y: 200.6, dx: 0.4, dy: 119.5 })).toEqual({
      actionType: 'scroll',
      x: 100,
      y: 201,
      scrollDx: 0,
      scrollDy: 120,
      description: 'Scroll by 120 px',
    })
  })

  it('make back or forward a navigate that takes the place of the keys that moved', () => {
    expect(historyStep('back', 'https://x.test/a')).toEqual({
      actionType: 'navigate',
      x: 0,
      y: 0,
      url: 'https://x.test/a',
      description: 'Go back to https://x.test/a',
    })
    expect(historyKeysBefore(step('key_press', 0, 0, { key: 'Alt+ArrowLeft' }))).toBe(true)
    expect(historyKeysBefore(step('key_press', 0, 0, { key: 'BrowserForward' }))).toBe(true)
    expect(historyKeysBefore(step('key_press', 0, 0, { key: 'ArrowLeft' }))).toBe(false)
    expect(historyKeysBefore(step('click'))).toBe(false)
    expect(historyKeysBefore(undefined)).toBe(false)
  })
})

describe('dialogs', () => {
  const first = step('click')
  const second = step('click')
  const pressed = new Map<Action, number>([
    [first, 100],
    [second, 300],
  ])
  const at = (a: Action) => pressed.get(a)

  it('belong to the click pressed last before they opened', () => {
    expect(dialogOwner(250, [100, 300], [first, second], at)).toBe(first)
    expect(dialogOwner(300, [100, 300], [first, second], at)).toBe(second)
  })

  it('are dropped when no press came before them, and wait while their click is not a step yet', () => {
    expect(dialogOwner(50, [100, 300], [first, second], at)).toBe('drop')
    expect(dialogOwner(450, [100, 300, 400], [first, second], at)).toBe('wait')
  })
})

describe('the moments inputs reach the page', () => {
  it('notes presses, typing, picks, keys and scrolls at the earlier of the page time and the arrival', () => {
    expect(reachedInput({ kind: 'key', key: 'Enter', at: 1_000, receivedAt: 1_040 })).toEqual({ at: 1_000 })
    // a page clock ahead of ours never puts an input after its arrival
    expect(reachedInput({ kind: 'scroll', dx: 0, dy: 5, x: 1, y: 1, at: 2_000, receivedAt: 1_500 })).toEqual({
      at: 1_500,
    })
    expect(
      reachedInput({
        kind: 'input',
        value: 'a',
        isPassword: false,
        x: 40.6,
        y: 10.2,
        receivedAt: 700,
        masks: [{ x: 1, y: 2, width: 3, height: 4 }],
      }),
    ).toEqual({ at: 700, field: '41,10', masks: [{ x: 1, y: 2, width: 3, height: 4 }] })
  })

  it('keeps secret boxes only from the top viewport, and notes nothing for drags, double clicks and files', () => {
    expect(
      reachedInput({
        kind: 'key',
        key: 'a',
        at: 5,
        receivedAt: 6,
        inFrame: 1,
        masks: [{ x: 1, y: 1, width: 1, height: 1 }],
      }),
    ).toEqual({ at: 5 })
    expect(reachedInput({ kind: 'dblclick', x: 1, y: 1, at: 5, receivedAt: 6 })).toBeNull()
    expect(reachedInput({ kind: 'drag', downAt: 1, x: 0, y: 0, endX: 9, endY: 9, receivedAt: 6 })).toBeNull()
    expect(reachedInput({ kind: 'files', names: ['a'], x: 0, y: 0, receivedAt: 6 })).toBeNull()
  })

  it('finds the first input after a moment, and the secret boxes around it', () => {
    const inputs = [
      { at: 100, masks: [{ x: 1, y: 1, width: 1, height: 1 }] },
      { at: 300, field: '5,5' },
      { at: 200, masks: [{ x: 2, y: 2, width: 2, height: 2 }] },
    ]
    expect(nextInput(inputs, 150)).toEqual({ at: 200, masks: [{ x: 2, y: 2, width: 2, height: 2 }] })
    expect(nextInput(inputs, 300)).toBeUndefined()
    expect(masksAround(inputs, 150)).toEqual([
      { x: 1, y: 1, width: 1, height: 1 },
      { x: 2, y: 2, width: 2, height: 2 },
    ])
    // at a moment an input came: that input is the one before, the next one after
    expect(masksAround(inputs, 200)).toEqual([{ x: 2, y: 2, width: 2, height: 2 }])
    expect(masksAround([], 200)).toEqual([])
  })
})

describe('caretsAround', () => {
  const at = (x: number) => ({ x, y: 10, width: 6, height: 20 })
  const notes = [
    { at: 100, box: at(10) },
    { at: 200, box: null },
    { at: 300, box: at(30) },
    { at: 400, box: at(40) },
  ]
  it('a frame between two notes: the caret of the last note before it and of the first after it', () => {
    expect(caretsAround(notes, 350)).toEqual([at(30), at(40)])
    expect(caretsAround(notes, 300)).toEqual([at(30), at(40)])
  })
  it('a note without a caret (focus left the field) adds none', () => {
    expect(caretsAround(notes, 150)).toEqual([at(10)])
    expect(caretsAround(notes, 250)).toEqual([at(30)])
  })
  it('before every note and after the last', () => {
    expect(caretsAround(notes, 50)).toEqual([at(10)])
    expect(caretsAround(notes, 500)).toEqual([at(40)])
    expect(caretsAround([], 500)).toEqual([])
  })
})
