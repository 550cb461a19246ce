import { createRequire } from 'node:module'
import type { BoundingBox, DesktopWindow } from '@qa/model'

/**
 * The top-level windows of an X display, over the X protocol (the pure-JavaScript `x11` client): which program's
 * window is under a point when recording, and where that program's window is when replaying. A window manager's
 * frame counts as the window (its box includes the decorations, the same at record and replay); the class is read
 * from the frame or the program's window inside it.
 */
export interface WindowLocator {
  /** The top-level window under a screen point; null over the bare root window or when the display cannot tell. */
  windowAt(x: number, y: number): Promise<DesktopWindow | null>
  /**
   * The same program's window now: the one viewable top-level window of the recorded class (among several, the
   * one with the recorded title; a step recorded on a menu or drop-down list: the popup of its height, see
   * `pickWindow`). Null when there is none, or several that nothing tells apart.
   */
  find(recorded: DesktopWindow): Promise<BoundingBox | null>
  /** The top-level window holding the keyboard focus (where a key goes); null when none or the root has it. */
  focused(): Promise<DesktopWindow | null>
  close(): Promise<void>
}

interface XClient {
  TranslateCoordinates(
    src: number,
    dst: number,
    x: number,
    y: number,
    cb: (err: unknown, r: { child: number }) => void,
  ): void
  QueryTree(wid: number, cb: (err: unknown, r: { children: number[]; parent: number }) => void): void
  GetInputFocus(cb: (err: unknown, r: { focus: number }) => void): void
  GetGeometry(
    wid: number,
    cb: (err: unknown, r: { xPos: number; yPos: number; width: number; height: number }) => void,
  ): void
  GetWindowAttributes(wid: number, cb: (err: unknown, r: { mapState: number; overrideRedirect: number }) => void): void
  GetProperty(
    del: number,
    wid: number,
    name: number,
    type: number,
    offset: number,
    length: number,
    cb: (err: unknown, r: { data: Buffer }) => void,
  ): void
  terminate(): void
  on(event: 'error', cb: (err: unknown) => void): void
}
interface X11Module {
  createClient(
    opts: { display: string },
    cb: (err: unknown, display: { client: XClient; screen: { root: number }[] }) => void,
  ): XClient
}

/** A viewable top-level window of the recorded class now. */
export interface WindowCandidate {
  box: BoundingBox
  title: string | null
  /** An override-redirect window: a menu, a drop-down list, a tooltip the program opened. */
  popup: boolean
}

/** A popup's height must agree this well (2 %) with the recorded window's to be taken for it. */
const POPUP_HEIGHT_AGREEMENT = 0.02

/**
 * The same program's window now, among the viewable windows of its class: the one program window (a normal, not
 * override-redirect one), or among several the one with the recorded title. But when the program has a popup open
 * (a menu, a drop-down's list: override-redirect windows of its class) whose height is the recorded window's
 * (within 2 %) and no other window of the class has that size, the step was recorded on a popup and the popup is
 * it: a menu keeps its rows and so its height, and grows sideways with its longest label (another language).
 * Null when nothing tells the windows apart. Pure.
 */
export function pickWindow(recorded: DesktopWindow, candidates: readonly WindowCandidate[]): BoundingBox | null {
  const was = recorded.box
  const sameHeight = (c: WindowCandidate) =>
    was.height > 0 && Math.abs(c.box.height / was.height - 1) <= POPUP_HEIGHT_AGREEMENT
  const sameSize = (c: WindowCandidate) => c.box.width === was.width && c.box.height === was.height
  const popups = candidates.filter((c) => c.popup && sameHeight(c))
  const programs = candidates.filter((c) => !c.popup)
  if (popups.length === 1 && !programs.some(sameSize)) return (popups[0] as WindowCandidate).box
  if (programs.length === 1) return (programs[0] as WindowCandidate).box
  const titled = programs.filter((c) => recorded.title && c.title === recorded.title)
  return titled.length === 1 ? (titled[0] as WindowCandidate).box : null
}

/** Predefined atoms of the core protocol. */
const WM_NAME = 39
const WM_CLASS = 67
const ANY_PROPERTY_TYPE = 0
const IS_VIEWABLE = 2
/** How deep under a top-level window (a window manager's frame) the program's window with its class is looked for. */
const CLASS_SEARCH_DEPTH = 3

/**
 * Connects to the display; null when the X client is not installed or the display refuses (the window prior is
 * optional: replay and recording go on without it).
 */
export async function openWindowLocator(display: string): Promise<WindowLocator | null> {
  let x11: X11Module
  try {
    x11 = createRequire(import.meta.url)('x11') as X11Module
  } catch {
    return null
  }
  const connected = await new Promise<{ client: XClient; root: number } | null>((resolve) => {
    const client = x11.createClient({ display }, (err, d) =>
      resolve(err ? null : { client: d.client, root: d.screen[0]?.root ?? 0 }),
    )
    client.on('error', () => resolve(null))
  }).catch(() => null)
  if (!connected) return null
  const { client: X, root } = connected
  // a request about a window that just closed answers with an error event; it only fails that request
  X.on('error', () => undefined)
  const ask = <T>(run: (cb: (err: unknown, value: T) => void) => void) =>
    new Promise<T | null>((resolve) => {
      try {
        run((err, value) => resolve(err ? null : value))
      } catch {
        resolve(null)
      }
    })
  const text = async (wid: number, atom: number): Promise<string[] | null> => {
    const prop = await ask<{ data: Buffer }>((cb) => X.GetProperty(0, wid, atom, ANY_PROPERTY_TYPE, 0, 256, cb))
    if (!prop || prop.data.length === 0) return null
    return prop.data.toString('utf8').split('\0')
  }
  /** The class and title of a top-level window: its own, or of the first window under it that has a class. */
  const identify = async (wid: number, depth = 0): Promise<{ className: string; title: string | null } | null> => {
    const cls = await text(wid, WM_CLASS)
    // WM_CLASS holds "instance\0Class\0"
    const className = cls?.[1] || cls?.[0]
    if (className) {
      const title = (await text(wid, WM_NAME))?.[0] ?? null
      return { className, title: title || null }
    }
    if (depth >= CLASS_SEARCH_DEPTH) return null
    const tree = await ask<{ children: number[] }>((cb) => X.QueryTree(wid, cb))
    for (const child of [...(tree?.children ?? [])].reverse()) {
      const found = await identify(child, depth + 1)
      if (found) return found
    }
    return null
  }
  const boxOf = async (wid: number): Promise<BoundingBox | null> => {
    const g = await ask<{ xPos: number; yPos: number; width: number; height: number }>((cb) => X.GetGeometry(wid, cb))
    if (!g) return null
    // a top-level window's place in its parent's (the root's) coordinates: its border's outer corner, as xwininfo
    // and -geometry give it
    return { x: g.xPos, y: g.yPos, width: g.width, height: g.height }
  }
  const describe = async (wid: number): Promise<DesktopWindow | null> => {
    const [box, who] = await Promise.all([boxOf(wid), identify(wid)])
    if (!box) return null
    return { box, ...(who ? { className: who.className, ...(who.title ? { title: who.title } : {}) } : {}) }
  }
  return {
    async focused() {
      const f = await ask<{ focus: number }>((cb) => X.GetInputFocus(cb))
      // None (0) and PointerRoot (1): no window holds the focus
      let wid = f?.focus ?? 0
      if (wid <= 1 || wid === root) return null
      // up to the top-level window (the root's child): a toolkit focuses an inner window
      for (let i = 0; i < 16; i++) {
        const tree = await ask<{ parent: number }>((cb) => X.QueryTree(wid, cb))
        if (!tree?.parent) return null
        if (tree.parent === root) return describe(wid)
        wid = tree.parent
      }
      return null
    },
    async windowAt(x, y) {
      const at = await ask<{ child: number }>((cb) => X.TranslateCoordinates(root, root, x, y, cb))
      if (!at?.child) return null
      const [box, who] = await Promise.all([boxOf(at.child), identify(at.child)])
      if (!box) return null
      return { box, ...(who ? { className: who.className, ...(who.title ? { title: who.title } : {}) } : {}) }
    },
    async find(recorded) {
      if (!recorded.className) return null
      const tree = await ask<{ children: number[] }>((cb) => X.QueryTree(root, cb))
      // every top-level window asked at once: the requests share the connection, one round trip's wait for all
      const seen = await Promise.all(
        (tree?.children ?? []).map(async (wid) => {
          const attrs = await ask<{ mapState: number; overrideRedirect: number }>((cb) =>
            X.GetWindowAttributes(wid, cb),
          )
          if (!attrs || attrs.mapState !== IS_VIEWABLE) return null
          const who = await identify(wid)
          if (!who || who.className !== recorded.className) return null
          const box = await boxOf(wid)
          return box ? { box, title: who.title, popup: Boolean(attrs.overrideRedirect) } : null
        }),
      )
      return pickWindow(
        recorded,
        seen.filter((c): c is WindowCandidate => c !== null),
      )
    },
    async close() {
      X.terminate()
    },
  }
}
