/** Boxes and frames as the page lays them out. Page code: bundled into the page functions, imports page code only. */

/** The box's centre is in the viewport (and the box is not empty): a click there can reach it. */
export const centreInView = (b: DOMRect): boolean =>
  b.width > 0 &&
  b.height > 0 &&
  b.top + b.height / 2 >= 0 &&
  b.left + b.width / 2 >= 0 &&
  b.top + b.height / 2 < innerHeight &&
  b.left + b.width / 2 < innerWidth

/**
 * Where the viewport of `win` is in the highest frame its script can reach, walking up through frame elements:
 * the offset to add to a point or a box there, the frame elements passed (nearest first), how many frames up the
 * walk went, and whether it reached the top (false when a parent of another origin stopped it).
 */
export function frameOffset(win: Window): { dx: number; dy: number; frames: Element[]; hops: number; top: boolean } {
  let dx = 0
  let dy = 0
  const frames: Element[] = []
  let top = true
  while (win !== win.parent) {
    let frameEl: Element | null = null
    try {
      frameEl = win.frameElement
    } catch {
      frameEl = null
    }
    if (!frameEl) {
      top = false
      break
    }
    frames.push(frameEl)
    const r = frameEl.getBoundingClientRect()
    dx += r.left + (frameEl as HTMLElement).clientLeft
    dy += r.top + (frameEl as HTMLElement).clientTop
    win = win.parent
  }
  return { dx, dy, frames, hops: frames.length, top }
}
