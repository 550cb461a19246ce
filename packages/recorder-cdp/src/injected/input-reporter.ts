import { installCaretNotesInPage } from './caret-notes'
import { describeElementsInPage } from './describe-elements'
import type { PageElementDescription } from './describe-elements'
import { frameOffset } from './geometry'
import { describeHitChainInPage, hitChainInPage } from './hit-chain'

/**
 * Runs in every frame at document start, in the recorder's isolated world (`cdp-recorder-world.ts`): the page's
 * scripts can neither call `binding` nor see what is reported. Only trusted input (`isTrusted`: what the browser
 * dispatches for the person's mouse and keys, or for CDP input) is reported, and typing into a text field only
 * when the browser announced the edit (a trusted `beforeinput`, which `execCommand` never fires). It calls the hit
 * chain and element descriptions of this folder's modules; `scripts/bundle-injected.ts` bundles it with them.
 */
export function installInputReporterInPage(binding: string): void {
  const w = window as unknown as Record<string, unknown> & { __qaReporterInstalled?: boolean }
  if (w.__qaReporterInstalled) return
  w.__qaReporterInstalled = true
  // where the text caret blinks, moment by moment: the recorded screenshots list it as unknown
  installCaretNotesInPage()
  // the recorder's own toolbar (recorder-toolbar.ts) is never recorded
  const toolbarKey = Symbol.for('qa.recorderToolbar')
  const fromToolbar = (e: Event) => {
    const host = (window as unknown as Record<symbol, Element | undefined>)[toolbarKey]
    return host !== undefined && e.composedPath().includes(host)
  }
  // an assert mode of the toolbar is waiting for its pick: that click is the toolbar's, not the page's
  const inputTimesKey = Symbol.for('qa.recorder.inputTimes')
  const INPUT_KINDS = new Set(['pointerdown', 'input', 'select', 'key', 'scroll'])
  const picking = () =>
    (window as unknown as Record<symbol, unknown>)[Symbol.for('qa.recorderToolbar.picking')] === true
  const send = (event: Record<string, unknown>) => {
    // the page's own note of when each input reached it, read by the recorder at once (its reports arrive later)
    if (typeof event.at === 'number' && INPUT_KINDS.has(String(event.kind))) {
      const notes = window as unknown as Record<symbol, number[] | undefined>
      const times = notes[inputTimesKey] ?? []
      times.push(event.at)
      // a press ends the moment before it from when the pointer came onto the pressed control: the frames after
      // that show its hover look, which a replay of the step before never shows
      if (typeof event.enteredAt === 'number' && event.enteredAt < event.at) times.push(event.enteredAt)
      notes[inputTimesKey] = times.slice(-50)
      // where the secrets were at this input: the frames around it are painted over there, even once the page
      // moved on (Enter submitted the form and the field is gone)
      try {
        const { dx, dy } = offset()
        event.masks = [...document.querySelectorAll('input[type="password" i]'), ...secretFields].map((el) => {
          const r = el.getBoundingClientRect()
          return { x: r.left + dx, y: r.top + dy, width: r.width, height: r.height }
        })
      } catch {
        // no boxes: the masks of now and of the pointer-downs still apply
      }
    }
    const fn = (window as unknown as Record<string, ((e: unknown) => void) | undefined>)[binding]
    if (typeof fn !== 'function') return
    // below a cross-origin parent the coordinates are in the viewport of the highest frame this script reaches
    const { top, hops } = offset()
    fn(top ? event : { ...event, inFrame: hops })
  }
  // Offset of this frame's viewport inside the top-level viewport (same-origin frames); `top`: it reached the top.
  const offset = () => frameOffset(window)
  // Fields a secret was typed into, kept from the moment of typing (its input event), whatever their type becomes.
  // Strong references: a field the page takes out and puts back is still one (the set is read, never walked by GC).
  const secretFields = new Set<Element>()
  Object.defineProperty(window, Symbol.for('qa.recorder.secretFields'), {
    configurable: true,
    value: () => {
      const { dx, dy, top, hops } = offset()
      const boxes = []
      for (const el of secretFields) {
        if (!el.isConnected) continue
        const r = el.getBoundingClientRect()
        if (r.width > 0 && r.height > 0) boxes.push({ x: r.left + dx, y: r.top + dy, width: r.width, height: r.height })
      }
      return { top, hops, boxes }
    },
  })
  const centre = (el: Element) => {
    const r = el.getBoundingClientRect()
    const { dx, dy } = offset()
    return { x: r.left + r.width / 2 + dx, y: r.top + r.height / 2 + dy }
  }
  const SPECIAL_KEYS = new Set([
    'Enter',
    'Tab',
    'Escape',
    'ArrowUp',
    'ArrowDown',
    'ArrowLeft',
    'ArrowRight',
    'PageUp',
    'PageDown',
    'Home',
    'End',
    'Backspace',
    'Delete',
    'F1',
    'F2',
    'F3',
    'F4',
    'F5',
    'F6',
    'F7',
    'F8',
    'F9',
    'F11',
    'F12',
  ])
  // markup that makes an element a click target by itself (a superset of chooseClickTarget's signs): the chain is
  // described up to the first such element, the one a click on it is recorded on unless a listener says otherwise
  const INTERACTIVE =
    'a[href],area[href],button,input,select,textarea,summary,option,label,[role],[onclick],[tabindex],[contenteditable]'
  // what the person pressed, described now: the page's own listeners run after this one (added at document start,
  // capture phase, on window) and may replace or remove the element, or navigate away
  const snapshotAt = (e: PointerEvent, dx: number, dy: number) => {
    try {
      const hit = e.composedPath()[0]
      if (!(hit instanceof Node)) return null
      const chain = hitChainInPage(hit, e.clientX + dx, e.clientY + dy)
      const nodes = describeHitChainInPage.call(chain)
      let end = 0
      while (end < chain.length && end < 12) {
        const el = chain[end] as Element
        if (el.localName === 'body' || el.localName === 'html') break
        end++
        if (el.matches(INTERACTIVE)) break
      }
      const descriptions = describeElementsInPage(chain.slice(0, end))
      const passwords = [...document.querySelectorAll('input[type="password" i]'), ...secretFields].map((el) => {
        const r = el.getBoundingClientRect()
        return { x: r.left + dx, y: r.top + dy, width: r.width, height: r.height }
      })
      for (const n of nodes) {
        n.box.x += dx
        n.box.y += dy
      }
      return { nodes, descriptions, passwords }
    } catch {
      return null
    }
  }
  // Hover-only menus. Snapshots, taken after the page's own handlers ran, say which elements interactive by their
  // markup are visible: one each time the pointer enters an element (and once more a moment later, for menus that
  // open with a delay or fade in), and one after each press, click and key (`cause`: what the pointer did not do).
  // An element's visible streak starts at the first snapshot that saw it after one that did not; a pressed element
  // whose streak began when the pointer entered another element was revealed by hovering that element.
  type Snap = {
    gen: number
    entered: Element | null
    cause: 'enter' | 'time' | 'other'
    at: number
    x: number
    y: number
  }
  const snaps: Snap[] = []
  let gen = 0
  const visibleSince = new WeakMap<Element, number>()
  const lastSeen = new WeakMap<Element, number>()
  const isShown = (el: Element) => {
    const r = el.getBoundingClientRect()
    if (r.width <= 0 || r.height <= 0) return false
    const check = (el as Element & { checkVisibility?: (o: Record<string, boolean>) => boolean }).checkVisibility
    return check
      ? check.call(el, {
          checkOpacity: true,
          checkVisibilityCSS: true,
          opacityProperty: true,
          visibilityProperty: true,
        })
      : true
  }
  const snapshotVisible = (snap: Omit<Snap, 'gen'>) => {
    gen++
    snaps.push({ gen, ...snap })
    if (snaps.length > 40) snaps.shift()
    const all = document.querySelectorAll(INTERACTIVE)
    for (let i = 0; i < all.length && i < 3000; i++) {
      const el = all[i] as Element
      if (!isShown(el)) continue
      if (lastSeen.get(el) !== gen - 1) visibleSince.set(el, gen)
      lastSeen.set(el, gen)
    }
  }
  const later = (snap: Omit<Snap, 'gen'>, ms = 0) =>
    setTimeout(() => {
      try {
        snapshotVisible(snap)
      } catch {
        // a page in the middle of replacing its document: the next snapshot will do
      }
    }, ms)
  const other = { entered: null, cause: 'other', at: 0, x: 0, y: 0 } as const
  if (document.readyState === 'loading') addEventListener('DOMContentLoaded', () => later(other))
  else later(other)
  addEventListener('load', () => later(other))
  addEventListener(
    'pointerover',
    (e) => {
      // input a page script makes (`dispatchEvent`, `click()`) is the page's, never the person's
      if (!e.isTrusted) return
      if (fromToolbar(e) || !(e.target instanceof Element)) return
      const { dx, dy } = offset()
      const at = performance.timeOrigin + e.timeStamp
      later({ entered: e.target, cause: 'enter', at, x: e.clientX + dx, y: e.clientY + dy })
      later({ entered: null, cause: 'time', at, x: 0, y: 0 }, 400)
    },
    { capture: true, passive: true },
  )
  // what a press, a click or a key shows (at once, or once the page has fetched and rendered) is not a hover's doing
  for (const type of ['pointerdown', 'click', 'keyup'])
    addEventListener(
      type,
      (e) => {
        if (!e.isTrusted) return
        later(other)
        later(other, 300)
        later(other, 1000)
      },
      { capture: true, passive: true },
    )
  /** The element whose hovering made `pressed` visible, or null (it was visible all along, or a click showed it). */
  const hoverRevealing = (pressed: Element) => {
    const since = visibleSince.get(pressed)
    if (since === undefined || since <= 1) return null
    for (let k = snaps.length - 1, walked = 0; k >= 0 && walked < 5; k--) {
      const snap = snaps[k] as Snap
      if (snap.gen > since) continue
      walked++
      if (snap.cause === 'other') return null
      const el = snap.entered
      if (el === null || !el.isConnected || el === pressed || pressed.contains(el)) continue
      if (el.localName === 'body' || el.localName === 'html' || !isShown(el)) continue
      // a hover menu and its trigger share a small part of the page, never only the whole page
      let common: Element | null = el
      while (common && !common.contains(pressed)) common = common.parentElement
      if (!common || common.localName === 'body' || common.localName === 'html') return null
      // (in an iframe, "the page" is the top one where this frame can see it: a menu may fill a small frame)
      let pageArea = innerWidth * innerHeight
      try {
        pageArea = Math.max(pageArea, (window.top?.innerWidth ?? 0) * (window.top?.innerHeight ?? 0))
      } catch {
        // a cross-origin top: this frame's own viewport
      }
      const r = common.getBoundingClientRect()
      if (r.width * r.height > pageArea * 0.6) return null
      return { el, at: snap.at }
    }
    return null
  }
  /** The hover that revealed the pressed element (the chain's first element interactive by its markup). */
  const hoverAt = (e: PointerEvent) => {
    try {
      const path = e.composedPath().filter((n): n is Element => n instanceof Element)
      const pressed = path.find((el) => el.matches(INTERACTIVE))
      if (!pressed || pressed.localName === 'body' || pressed.localName === 'html') return null
      const found = hoverRevealing(pressed)
      if (!found) return null
      const [description] = describeElementsInPage([found.el])
      if (!description) return null
      const b = description.box
      return { at: found.at, x: b.x + b.width / 2, y: b.y + b.height / 2, description }
    } catch {
      return null
    }
  }
  // Drags: the pointer went down, moved some way and came up elsewhere (pointer events), or an HTML5 drag ended
  // (the browser cancels the pointer then, and reports the drag's own events).
  let pressedDown: {
    at: number
    x: number
    y: number
    far: boolean
    /** What was pressed, and where it and its ancestors were then: what moved with the pointer is not the drop. */
    target: Element | null
    boxes: Map<Element, string>
    /** The text selected when the pointer went down (a press the page let through collapses it). */
    selection: string
  } | null = null
  /** The text selected now: in the document, or in the focused field. */
  const selectedText = () => {
    const active = document.activeElement as HTMLInputElement | null
    if (active && (active.localName === 'input' || active.localName === 'textarea')) {
      try {
        const { selectionStart: start, selectionEnd: end } = active
        if (start !== null && end !== null && start !== end) return `field:${active.value.slice(start, end)}`
      } catch {
        // an input type without a text selection (checkbox, range, …)
      }
    }
    const selection = getSelection()
    return selection && !selection.isCollapsed ? selection.toString() : ''
  }
  /**
   * The press selected text, and that is all it did: text is selected now that was not when the pointer went
   * down, and nothing pressed moved (a card a page moves with the pointer is dragged, whatever got selected
   * meanwhile). Such a press is no drag: moving something from the press point to the release point on replay
   * is not what the person did. Neither Chrome DevTools Recorder nor Playwright codegen records a selection: each
   * records the click the browser dispatches when the button comes up (on the common ancestor of press and
   * release), and so the press stays the click it was recorded as.
   */
  const onlySelectedText = (down: NonNullable<typeof pressedDown>) => {
    const now = selectedText()
    if (now.trim() === '' || now === down.selection) return false
    for (const [el, box] of down.boxes) if (el.isConnected && boxKey(el) !== box) return false
    return true
  }
  const boxKey = (el: Element) => {
    const r = el.getBoundingClientRect()
    return `${Math.round(r.left)},${Math.round(r.top)},${Math.round(r.width)},${Math.round(r.height)}`
  }
  let dragOver: { x: number; y: number } | null = null
  const far = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y) > 12
  const sendDrag = (end: { x: number; y: number }) => {
    const down = pressedDown
    pressedDown = null
    dragOver = null
    if (!down || !far(down, end)) return
    let drop: unknown = null
    try {
      const { dx, dy } = offset()
      const pressed = down.target
      // under the drop point, leaving out what was dragged (the pressed element, and ancestors that moved with it)
      const moved = (el: Element) =>
        !!pressed &&
        (el === pressed ||
          pressed.contains(el) ||
          (el.contains(pressed) && down.boxes.has(el) && down.boxes.get(el) !== boxKey(el)))
      let el: Element | null =
        document.elementsFromPoint(end.x - dx, end.y - dy).find((candidate) => !moved(candidate)) ?? null
      // the drop zone, rather than a line of text in it: the nearest element that names itself, 4 levels up at most
      for (let k = 0, at = el; k < 4 && at && at.localName !== 'body'; k++, at = at.parentElement)
        if (at.id || at.getAttribute('role') || at.getAttribute('aria-label') || at.getAttribute('data-testid')) {
          el = at
          break
        }
      drop = el ? (describeElementsInPage([el])[0] ?? null) : null
    } catch {
      drop = null
    }
    send({ kind: 'drag', downAt: down.at, x: down.x, y: down.y, endX: end.x, endY: end.y, drop })
  }
  addEventListener(
    'pointermove',
    (e) => {
      if (!e.isTrusted) return
      if (!pressedDown || (e.buttons & 1) === 0) return
      const { dx, dy } = offset()
      if (far(pressedDown, { x: e.clientX + dx, y: e.clientY + dy })) pressedDown.far = true
    },
    { capture: true, passive: true },
  )
  addEventListener(
    'pointerup',
    (e) => {
      if (!e.isTrusted) return
      if (!pressedDown) return
      const { dx, dy } = offset()
      if (pressedDown.far && !onlySelectedText(pressedDown)) sendDrag({ x: e.clientX + dx, y: e.clientY + dy })
      else pressedDown = null
    },
    true,
  )
  addEventListener(
    'dragover',
    (e) => {
      if (!e.isTrusted) return
      const { dx, dy } = offset()
      dragOver = { x: e.clientX + dx, y: e.clientY + dy }
    },
    { capture: true, passive: true },
  )
  addEventListener(
    'drop',
    (e) => {
      if (!e.isTrusted) return
      const { dx, dy } = offset()
      dragOver = { x: e.clientX + dx, y: e.clientY + dy }
    },
    true,
  )
  addEventListener(
    'dragend',
    (e) => {
      if (!e.isTrusted) return
      if (pressedDown && dragOver) sendDrag(dragOver)
      else pressedDown = null
    },
    true,
  )
  addEventListener(
    'dblclick',
    (e) => {
      if (!e.isTrusted) return
      if (fromToolbar(e) || picking()) return
      const { dx, dy } = offset()
      send({ kind: 'dblclick', x: e.clientX + dx, y: e.clientY + dy, at: performance.timeOrigin + e.timeStamp })
    },
    true,
  )
  /** What the person's last trusted pointerdown pressed (a file input whose chooser they opened). */
  let lastPressed: Element | null = null
  // when the pointer came onto each element it is over now (pointerenter reaches a capturing listener per element)
  const enteredAt = new WeakMap<Element, number>()
  addEventListener(
    'pointerenter',
    (e) => {
      if (e.isTrusted && e.target instanceof Element) enteredAt.set(e.target, performance.timeOrigin + e.timeStamp)
    },
    { capture: true, passive: true },
  )
  addEventListener(
    'pointerleave',
    (e) => {
      if (e.target instanceof Element) enteredAt.delete(e.target)
    },
    { capture: true, passive: true },
  )
  /** When the pointer came onto the control a press at `target` presses (the first interactive one up its chain). */
  const pressedEnteredAt = (target: Element | null): number | null => {
    for (let el = target, k = 0; el && k < 12 && el.localName !== 'body'; el = el.parentElement, k++)
      if (el.matches(INTERACTIVE)) return enteredAt.get(el) ?? null
    return null
  }
  addEventListener(
    'pointerdown',
    (e) => {
      if (!e.isTrusted) return
      if (fromToolbar(e) || picking()) return
      const { dx, dy } = offset()
      const at = performance.timeOrigin + e.timeStamp
      const x = e.clientX + dx
      const y = e.clientY + dy
      const target = e.composedPath()[0] instanceof Element ? (e.composedPath()[0] as Element) : null
      const boxes = new Map<Element, string>()
      for (let k = 0, el = target; k < 8 && el && el.localName !== 'body'; k++, el = el.parentElement)
        boxes.set(el, boxKey(el))
      pressedDown = e.button === 0 ? { at, x, y, far: false, target, boxes, selection: selectedText() } : null
      lastPressed = target
      send({
        kind: 'pointerdown',
        x,
        y,
        button: e.button,
        detail: e.detail,
        at,
        enteredAt: pressedEnteredAt(target),
        snapshot: snapshotAt(e, dx, dy),
        hover: e.button === 0 && e.detail <= 1 ? hoverAt(e) : null,
      })
    },
    true,
  )
  // Typing is the person's when the browser announced the edit first: a trusted `beforeinput` (their keys, an IME, a
  // paste, a drop, an undo) comes before every change they make to a text field, and before none a page script makes
  // with `document.execCommand('insertText')`, whose `input` event is trusted all the same.
  let announced: Element | null = null
  addEventListener(
    'beforeinput',
    (e) => {
      if (!e.isTrusted) return
      const el = e.composedPath()[0]
      announced = el instanceof Element ? el : null
    },
    true,
  )
  /** Fields whose value only typing changes (a number field's value also steps with its arrows, without an edit). */
  const TEXT_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password'])
  let lastInputField: Element | null = null
  // the fields typed into, each named once for this document: inputs into one field are one typing however it moves
  const fieldIds = new WeakMap<Element, string>()
  const documentToken = Math.random().toString(36).slice(2, 8)
  let fieldsNamed = 0
  const fieldIdOf = (el: Element): string => {
    let id = fieldIds.get(el)
    if (!id) {
      id = `${documentToken}-${++fieldsNamed}`
      fieldIds.set(el, id)
    }
    return id
  }
  addEventListener(
    'input',
    (e) => {
      if (!e.isTrusted) return
      if (fromToolbar(e)) return
      const el = e.composedPath()[0] as HTMLInputElement | undefined
      if (!el || !('value' in el)) return
      if (el.localName === 'select') return
      const type = (el.getAttribute?.('type') ?? '').toLowerCase()
      // a file input's choice is reported by its change event (the names), never as typing
      if (type === 'checkbox' || type === 'radio' || type === 'file') return
      const edit = announced
      announced = null
      const isText = el.localName === 'textarea' || (el.localName === 'input' && TEXT_TYPES.has(type))
      if (isText && edit !== el) return
      // a field that was a password field stays one after a "show password" toggle made it type=text
      const autocomplete = (el.getAttribute?.('autocomplete') ?? '').toLowerCase()
      if (type === 'password' || /\b(current|new)-password\b/.test(autocomplete)) secretFields.add(el)
      const isPassword = secretFields.has(el)
      let field: PageElementDescription | null = null
      if (el !== lastInputField && offset().top) {
        try {
          field = describeElementsInPage([el])[0] ?? null
        } catch {
          field = null
        }
      }
      lastInputField = el
      const at = performance.timeOrigin + e.timeStamp
      const value = isPassword ? '' : String(el.value)
      send({ kind: 'input', at, value, isPassword, ...centre(el), fieldId: fieldIdOf(el), field })
    },
    true,
  )
  addEventListener(
    'change',
    (e) => {
      if (fromToolbar(e)) return
      const el = e.composedPath()[0] as HTMLSelectElement | undefined
      const files = (el as unknown as HTMLInputElement | undefined)?.files
      // the files chosen in the chooser the person opened by pressing this very input: a browser driven over CDP
      // (DevTools, an automation) sets them without a trusted event; any other untrusted change is not the person's
      const chosenHere = el?.localName === 'input' && files && lastPressed === el
      if (!e.isTrusted && !chosenHere) return
      if (el?.localName === 'input' && files) {
        // the names only: where the files were on the person's machine is theirs (a replay names its own folder)
        send({ kind: 'files', names: Array.from(files).map((f) => f.name), ...centre(el) })
        return
      }
      if (el?.localName !== 'select') return
      const at = performance.timeOrigin + e.timeStamp
      send({ kind: 'select', label: el.selectedOptions[0]?.label ?? el.value, ...centre(el), at })
    },
    true,
  )
  addEventListener(
    'keydown',
    (e) => {
      if (!e.isTrusted) return
      // typing into the toolbar's editor, or Escape ending an assert mode, is the toolbar's
      if (!SPECIAL_KEYS.has(e.key) || fromToolbar(e) || picking()) return
      const mods = [
        e.ctrlKey && 'Control',
        e.altKey && 'Alt',
        e.metaKey && 'Meta',
        e.shiftKey && e.key !== 'Tab' && 'Shift',
      ].filter(Boolean)
      send({ kind: 'key', key: [...mods, e.key].join('+'), at: performance.timeOrigin + e.timeStamp })
    },
    true,
  )
  let pending: { dx: number; dy: number; x: number; y: number; at: number } | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  addEventListener(
    'wheel',
    (e) => {
      if (!e.isTrusted) return
      if (fromToolbar(e)) return
      const { dx, dy } = offset()
      pending = pending ?? {
        dx: 0,
        dy: 0,
        x: e.clientX + dx,
        y: e.clientY + dy,
        at: performance.timeOrigin + e.timeStamp,
      }
      pending.dx += e.deltaX
      pending.dy += e.deltaY
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => {
        if (pending) send({ kind: 'scroll', ...pending })
        pending = null
      }, 250)
    },
    { capture: true, passive: true },
  )
}
