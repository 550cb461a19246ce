import type { PageElementDescription } from '../injected/page-scripts'
import type { PageInputEvent } from './page-input-event'

/**
 * Where the frame `hops` levels up from the one an input came from is: the origin of its viewport in the top-level
 * viewport, and its iframe's frame path from the top document (null where it cannot be described). Null when that
 * frame is gone or not laid out (`RecorderWorld.placeFrame`).
 */
export type FramePlacer = (
  hops: number,
) => Promise<{ origin: { x: number; y: number }; framePath: string[] | null } | null>

/**
 * An input event reported from below a cross-origin parent (`inFrame`: how many frames up its script could walk),
 * moved into the top-level viewport by the content-box origin of the highest frame it reached: its points, and the
 * boxes of what it described (what was pressed, the hover that revealed it, the drop), whose frame paths get that
 * frame's own path in front. Where that path cannot be described, the descriptions are left out and
 * `framePathUnknown` says the elements are read over CDP at their points. Throws when that frame cannot be placed
 * (gone): the event is dropped rather than recorded at a wrong point.
 */
export async function placeFrameEvent(event: PageInputEvent, placeFrame: FramePlacer): Promise<PageInputEvent> {
  const placedFrame = await placeFrame(event.inFrame ?? 0)
  if (!placedFrame) throw new Error('the frame the input came from is gone')
  const { origin, framePath } = placedFrame
  const placed = { ...event } as PageInputEvent & Record<string, unknown>
  delete placed.inFrame
  for (const [key, axis] of [
    ['x', 'x'],
    ['y', 'y'],
    ['endX', 'x'],
    ['endY', 'y'],
  ] as const)
    if (typeof placed[key] === 'number') placed[key] = (placed[key] as number) + origin[axis]
  const moved = <B extends { x: number; y: number }>(box: B): B => ({
    ...box,
    x: box.x + origin.x,
    y: box.y + origin.y,
  })
  const place = (d: PageElementDescription): PageElementDescription => ({
    ...d,
    box: moved(d.box),
    framePath: [...(framePath ?? []), ...d.framePath],
  })
  if (!framePath) placed.framePathUnknown = true
  if (placed.kind === 'drag' && placed.drop) {
    if (framePath) placed.drop = place(placed.drop)
    else delete placed.drop
  }
  if (placed.kind === 'pointerdown') {
    if (placed.hover) placed.hover = { ...moved(placed.hover), description: place(placed.hover.description) }
    // without the frame's path, what was pressed cannot be named from the page: it is read at its point
    if (placed.snapshot && framePath)
      placed.snapshot = {
        ...placed.snapshot,
        nodes: placed.snapshot.nodes.map((n) => ({ ...n, box: moved(n.box) })),
        descriptions: placed.snapshot.descriptions.map(place),
        passwords: placed.snapshot.passwords.map(moved),
      }
    else placed.snapshot = null
  }
  return placed
}

/**
 * A point in the viewport of the frame `hops` levels up from the one it came from, in the top-level viewport: where
 * the toolbar's pick in a frame below a cross-origin parent was. Null when that frame is gone.
 */
export async function pointInTopViewport(
  point: { x: number; y: number },
  placeFrame: FramePlacer,
  hops: number,
): Promise<{ x: number; y: number } | null> {
  const placed = await placeFrame(hops)
  return placed ? { x: point.x + placed.origin.x, y: point.y + placed.origin.y } : null
}
