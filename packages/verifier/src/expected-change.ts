import {
  bounds,
  caretPixels,
  changedRegions,
  changeMask,
  DEFAULT_THRESHOLD,
  forEachSet,
  paint,
  unionBox,
} from './change-mask'
import type { Rect } from './compare-screenshots'
import { compareDealtContent, type DealtContentResult } from './dealt-content'
import { learnPalette, type PaletteSummary, paletteCannotApply, recolour } from './palette-transfer'
import {
  AS_RECORDED,
  agreeingShare,
  type Displacement,
  grow,
  moved,
  type Placement,
  plain,
  SAME_SCALE,
  shiftsOf,
} from './placement'
import type { RgbaImage } from './rgba-image'
import { compareRelaidOut, laidOutInPlace, type RelaidOutResult, relaidOut, type WindowPlace } from './window-layout'
import { alike, maxDeltaOf } from './yiq'

// the change mask and its regions, and the image type, importable from here as before
export {
  type ChangedRegionOptions,
  type ChangeMaskOptions,
  caretPixels,
  changedRegions,
  changeMask,
  unionBox,
} from './change-mask'
export type { DealtContentResult } from './dealt-content'
export type { Displacement } from './placement'
export type { RgbaImage } from './rgba-image'
export type { RelaidOutResult, WindowPlace } from './window-layout'

export interface ExpectedChangeInput {
  /** The recorded frame before the step (what its change is measured from); null: only the target box is checked. */
  recordedBefore?: RgbaImage | null
  /** The recorded after-frame: what the step should leave on the screen. */
  recordedAfter: RgbaImage
  /** The screen after the replayed step. */
  actualAfter: RgbaImage
  /** The screen just before the replayed step ran: needed to see a change somewhere else instead. */
  actualBefore?: RgbaImage | null
  /** How far the target moved between recording and replay (replayed point − recorded point). Default 0,0. */
  displacement?: Displacement | null
  /**
   * How much larger the program is drawn now than when recorded (a template match at 1.25×: 1.25; a replay
   * screen of another size), about `anchor`: a recorded pixel p is compared with the current pixel at
   * anchor + displacement + (p − anchor) × scale. Default 1: only moved.
   */
  scale?: number | null
  /** The recorded point the scale is taken about: the step's recorded target point. Default (0, 0). */
  anchor?: Displacement | null
  /** The target element's box on the recorded screen, checked with the changed regions. */
  targetBox?: Rect | null
  /**
   * Boxes on the recorded screen whose change is not this step's effect: the previous step's target losing its
   * hover or focus look when the pointer moved on. Changed regions inside them are left out.
   */
  notEffects?: readonly Rect[]
  /**
   * The target element's box on the current screen, when the replay located it: its own look may change during
   * the step (hover, focus, pressed) without that counting as a change elsewhere.
   */
  actualTargetBox?: Rect | null
  /**
   * Boxes on the recorded screen of elements the step brought under the resting pointer (a menu closed and the
   * button behind it is where the pointer is): whether they show their hover look depends on when the browser
   * updated it (a person's waits for the pointer to move; a replay's may not). Each is compared through a colour
   * map of its own when one explains it — a hover recolours an element, another element reshapes it.
   */
  restingHover?: readonly Rect[]
  /** Rectangles of the recorded screen never compared (masks). */
  ignore?: readonly Rect[]
  /** Colour threshold 0–1 (pixelmatch's). Default 0.1. */
  threshold?: number
  /** Fewer changed pixels than this are no expected change (default 16) and no unexpected one (default 64). */
  minExpectedPixels?: number
  minUnexpectedPixels?: number
  /** Pixels around the expected regions a change may spill into without counting as elsewhere (default 8). */
  marginPx?: number
  /**
   * The step's program window on the recorded screen and on the current one. When its size differs (the toolkit
   * laid it out again), the step is mapped at the same scale (`scale` 1) and the recorded change lies mostly inside
   * the window, the change is also compared item by item inside the window (`relaidOut`).
   */
  window?: WindowPlace | null
  /**
   * Windows the step opened (a menu, a drop-down's list, a popover drawn as a window of its own): where the recording
   * showed each and where it is now. A menu keeps its rows and grows sideways with its longest label (another
   * language): once the recorded step is seen to have drawn it (most of its recorded box changed), what changed
   * inside its current box is that window appearing, not a change elsewhere.
   */
  opened?: readonly WindowPlace[]
  /**
   * The program window the step's own window (a menu, a list) was opened over, recorded and now: a step in a popup
   * acts on that window (a difficulty chosen in a menu deals a new board), whose size tells how large the program
   * draws its content now (`dealt`'s change is expected that much larger).
   */
  parentWindow?: WindowPlace | null
}

/** The item-by-item comparison of a step in a window laid out again, with what changed outside that window. */
export interface RelaidOutComparison extends RelaidOutResult {
  /** Current-screen pixels changed during the step outside the current window (grown by the margin), unlike the recording. */
  unexpectedPixels: number
  unexpectedRegions: Rect[]
  /** unexpectedPixels ≥ minUnexpectedPixels. */
  changedElsewhere: boolean
}

export interface ExpectedChangeResult {
  /** Where the recorded step changed the screen (before → after), plus the target box; recorded-screen pixels. */
  expectedRegions: Rect[]
  /** The bounding box of `expectedRegions` (recorded screen), or null when there is nothing to compare. */
  expectedRegion: Rect | null
  /** The same box on the current screen (moved by the displacement, scaled by the scale). */
  actualRegion: Rect | null
  displacement: Displacement
  /** The scale the regions were mapped with (1: only moved). */
  scale: number
  /** Pixels compared inside the regions. */
  comparedPixels: number
  /** Pixels that changed between the recorded before and after frames, inside the regions. */
  expectedChangedPixels: number
  /** Pixels inside the regions where the current screen differs from the recorded after-frame. */
  differingPixels: number
  /** 1 − differing / compared: plain similarity of the regions. */
  pixelSimilarity: number
  /**
   * 1 − differing / (expected change ∪ differing): how much of the change the step should make (or made instead)
   * agrees with the recorded after-frame; null when the recorded step changed (almost) nothing.
   */
  changeSimilarity: number | null
  /** The score the verdict uses: changeSimilarity when the step had a change to make, else pixelSimilarity. */
  regionSimilarity: number
  /** Share of the expected change whose pixels still look as before the step (1: the change did not happen). */
  unchangedShare: number | null
  /** Current-screen boxes that changed during the step, outside the expected regions, unlike the recording. */
  unexpectedRegions: Rect[]
  unexpectedPixels: number
  /** unexpectedPixels ≥ minUnexpectedPixels. */
  changedElsewhere: boolean
  /** The recorded step changed at least minExpectedPixels (changeSimilarity is set). */
  hadExpectedChange: boolean
  /** The recorded change did not happen: at least 80 % of it still looks as before the step. */
  expectedChangeMissing: boolean
  /**
   * The colour map learned from the two before-frames (a palette or theme change), null without both of them.
   * When `applied`, every recorded pixel above was compared in its current colour (a colour the map never saw
   * as it was recorded).
   */
  palette: PaletteSummary | null
  /**
   * The window was laid out again at another size and the recorded change lies mostly inside it: the change
   * compared item by item inside the window, and what changed outside it. Null otherwise.
   */
  relaidOut: RelaidOutComparison | null
  /** Current-screen boxes of the windows the step opened (`opened`) that the recorded step drew too. */
  openedWindows: Rect[]
  /**
   * The program showed other content before the step than when recorded (a new deal: a random puzzle), and the step's
   * change compared as a change (how much, from and to which colours): set when the regions did not match cleanly
   * and the window was not laid out again; null otherwise.
   */
  dealt: DealtContentResult | null
}

/** How far around the expected regions the palette of the before-frames is learned (recorded pixels). */
const PALETTE_MARGIN_PX = 64
/** A control under the resting pointer is compared through its own colour map when it explains this share of it. */
const HOVER_EXPLAINED = 0.98
/**
 * Before-frames that agree on this share of the learning area outside the target's box are one palette: what
 * differs on the target is its own look (lit by a person's resting pointer when recorded, not yet by the replay's).
 */
const SAME_PALETTE_BESIDE_TARGET = 0.98
/** A colour map that shows more than this share of the step's change in one colour before and after is not used. */
const MAX_HIDDEN_CHANGE = 0.5
/** A step whose recorded change lies at least this much inside its window is compared inside it when relaid out. */
const INSIDE_WINDOW_SHARE = 0.5
/** Regions this similar (0.99) match as they are: no other comparison is computed for them. */
const CLEAN_SIMILARITY = 0.99
/** A window the step opened was drawn by the recorded step when it changed at least this share of its recorded box. */
const OPENED_DRAWN_SHARE = 0.3
/** ... and it is the same window when its box now covers at least this share of the recorded one (moved as the step). */
const OPENED_OVERLAP_SHARE = 0.5

/**
 * What the step was meant to change, and whether the replay changed it: the regions that changed
 * between the recorded before and after frames, plus the target's box, are compared between the recorded
 * after-frame and the current screen, moved by the step's displacement (the window moved → the region moves).
 * A change that did not happen, or happened differently, lowers `regionSimilarity` however well the rest of
 * the screen matches; a change during the replayed step outside those regions that the recording did not show
 * is reported as `unexpectedRegions`. When the screen before the step is the recorded before-frame in other
 * colours (a palette or theme change), the colour map that explains it is learned around the regions and the
 * recorded frames are compared through it (`palette`). Pure.
 */
export function assessExpectedChange(input: ExpectedChangeInput): ExpectedChangeResult {
  const rec = input.recordedAfter
  const act = input.actualAfter
  const d = { x: Math.round(input.displacement?.x ?? 0), y: Math.round(input.displacement?.y ?? 0) }
  const scale = input.scale && Number.isFinite(input.scale) && input.scale > 0 ? input.scale : 1
  const anchor = { x: input.anchor?.x ?? 0, y: input.anchor?.y ?? 0 }
  const threshold = input.threshold ?? DEFAULT_THRESHOLD
  const maxDelta = maxDeltaOf(threshold)
  const minExpected = input.minExpectedPixels ?? 16
  const minUnexpected = input.minUnexpectedPixels ?? 64
  const margin = input.marginPx ?? 8
  const W = rec.width
  const H = rec.height
  const before =
    input.recordedBefore && input.recordedBefore.width === W && input.recordedBefore.height === H
      ? input.recordedBefore
      : null

  // M: what the recorded step changed
  const expectedMask = before
    ? changeMask(before, rec, { threshold, ...(input.ignore ? { ignore: input.ignore } : {}) })
    : null
  // the previous target losing its hover or focus look is not this step's effect
  if (expectedMask && input.notEffects?.length)
    paint(
      expectedMask,
      W,
      H,
      input.notEffects.map((r) => grow(r, margin)),
      0,
    )
  const changed = expectedMask ? changedRegions(expectedMask, W, H).filter((r) => r.pixels > 0) : []
  const regions: Rect[] = changed.map(plain)
  if (input.targetBox && input.targetBox.width > 0 && input.targetBox.height > 0) regions.push(plain(input.targetBox))

  // R: the pixels compared (every region, clipped to the recorded screen, minus the masks)
  const inRegion = new Uint8Array(W * H)
  paint(inRegion, W, H, regions, 1)
  if (input.ignore?.length) paint(inRegion, W, H, input.ignore, 0)

  // Each region is compared where the displacement puts it and, when that differs, where it was recorded: a
  // layout that shifted only in part moves the target but may leave the step's effect (a panel, a status
  // line) where it was. Each region counts at its better place.
  const placements: Placement[] =
    d.x === 0 && d.y === 0 && scale === 1 ? [moved(d, scale, anchor)] : [moved(d, scale, anchor), AS_RECORDED]
  // a palette or theme change: the recorded frames are compared in the colours the screen before the step has now
  const actBefore =
    input.actualBefore && input.actualBefore.width === act.width && input.actualBefore.height === act.height
      ? input.actualBefore
      : null
  // what changed during the replayed step outside the expected regions (moved)
  // content drawn at another scale by the program itself (a larger font) grows from its own edges, not about the
  // target: a line of text may run past where the scale puts its region by |scale − 1| of the region's size
  const grownBy = (r: Rect) =>
    Math.abs(scale - 1) < SAME_SCALE ? 0 : Math.ceil(Math.abs(scale - 1) * Math.max(r.width, r.height))
  // the windows the step opened, as the recorded step drew them: what changed inside them now is their appearing
  const openedNow =
    expectedMask && input.opened?.length
      ? input.opened
          .filter((w) => drawnByStep(w, expectedMask, W, H, placements[0] as Placement))
          .map((w) => plain(w.now))
      : []
  const changedNow = actBefore
    ? changeMask(actBefore, act, {
        threshold,
        ignore: [
          ...regions.flatMap((r) => placements.map((o) => grow(o.rect(r), margin + grownBy(r)))),
          ...(input.ignore ?? []).map((r) => (placements[0] as Placement).rect(r)),
          ...(input.actualTargetBox ? [grow(input.actualTargetBox, margin)] : []),
          ...(input.restingHover ?? []).map((r) => (placements[0] as Placement).rect(r)),
          ...openedNow.map((r) => grow(r, margin)),
        ],
      })
    : null
  let palette: PaletteSummary | null = null
  let recAfter = rec
  let recBefore = before
  const paletteArea = (): Uint8Array => {
    const area = new Uint8Array(W * H)
    paint(
      area,
      W,
      H,
      regions.map((r) => grow(r, PALETTE_MARGIN_PX)),
      1,
    )
    if (input.ignore?.length) paint(area, W, H, input.ignore, 0)
    return area
  }
  const learningArea = before && actBefore && changedNow && regions.length ? paletteArea() : null
  // the screen before the step in the recorded colours (the common step): no map can apply, none is learned
  const unlearned =
    before && actBefore && learningArea
      ? placements.map((o) => paletteCannotApply(before, actBefore, learningArea, o, { threshold }))
      : []
  if (unlearned.length && unlearned.every((u) => u !== null)) {
    palette = (unlearned as PaletteSummary[]).reduce((a, b) => (b.explained > a.explained ? b : a))
  } else if (before && actBefore && changedNow && learningArea) {
    const area = learningArea
    // learned where the regions are compared: at the displacement or where recorded, whichever explains more
    // of those the map may be trusted at
    let learned: ReturnType<typeof learnPalette> | null = null
    for (const o of placements) {
      const t = learnPalette(before, actBefore, area, o, { threshold })
      if (
        !learned ||
        (t.applied && !learned.applied) ||
        (t.applied === learned.applied && t.explained > learned.explained)
      )
        learned = t
    }
    const transfer = learned as ReturnType<typeof learnPalette>
    const { map: _map, principal: _principal, onGround: _onGround, ...summary } = transfer
    palette = summary
    if (transfer.applied && input.targetBox) {
      // a theme shows beside the target too; a difference on the target alone is its hover or focus look
      const beside = new Uint8Array(area)
      paint(beside, W, H, [grow(input.targetBox, margin)], 0)
      if (agreeingShare(before, actBefore, beside, placements, maxDelta) >= SAME_PALETTE_BESIDE_TARGET)
        palette = { ...summary, applied: false }
    }
    if (palette.applied) {
      // only the recorded pixels compared below: the regions, and where a change elsewhere is looked up
      const lookedUp = new Uint8Array(inRegion)
      for (let i = 0; i < changedNow.length; i++) {
        if (!changedNow[i]) continue
        const ax = i % act.width
        const ay = (i - ax) / act.width
        for (const o of placements) {
          const x = o.backX(ax)
          const y = o.backY(ay)
          if (x >= 0 && y >= 0 && x < W && y < H) lookedUp[y * W + x] = 1
        }
      }
      const mappedAfter = recolour(rec, transfer, { before, only: lookedUp })
      const mappedBefore = recolour(before, transfer, { only: inRegion })
      // a map that draws the step's change in one colour (before and after alike) hides what is checked here
      let change = 0
      let hidden = 0
      for (let i = 0; i < inRegion.length; i++) {
        if (!inRegion[i] || !expectedMask?.[i]) continue
        change++
        if (alike(mappedBefore.data, i * 4, mappedAfter.data, i * 4, maxDelta)) hidden++
      }
      if (change > 0 && hidden > change * MAX_HIDDEN_CHANGE) palette = { ...summary, applied: false }
      else {
        recAfter = mappedAfter
        recBefore = mappedBefore
      }
    }
  }
  for (const box of input.restingHover ?? []) {
    const area = new Uint8Array(W * H)
    paint(area, W, H, [box], 1)
    if (input.ignore?.length) paint(area, W, H, input.ignore, 0)
    // a hover recolours the whole element alike; new text or a new shape leaves pixels no map explains
    if (paletteCannotApply(recAfter, act, area, placements[0] as Placement, { threshold }) !== null) continue
    const hover = learnPalette(recAfter, act, area, placements[0] as Placement, {
      threshold,
      minExplained: HOVER_EXPLAINED,
    })
    if (hover.applied) recAfter = recolour(recAfter, hover, { only: area })
  }
  let compared = 0
  let expectedChanged = 0
  let differing = 0
  let union = 0
  let stillBefore = 0
  const placed: Placement[] = []
  const counted = new Uint8Array(W * H)
  /** The recorded pixels that differ on the current screen (at their placement). */
  const differs = new Uint8Array(W * H)
  for (const region of regions) {
    const [x0, y0, x1, y1] = bounds(region, W, H)
    let best: {
      o: Placement
      c: number
      m: number
      diff: number
      u: number
      still: number
      differsAt: number[]
    } | null = null
    // at another scale, each region is also looked for a few pixels around where the scale puts it: the scale is
    // measured on the target (a template match at 1.38 on a board drawn at 1.4), and a region far from it drifts
    for (const o of placements.flatMap((p) => (p.reach > 0 ? shiftsOf(p) : [p]))) {
      const t = tally(x0, y0, x1, y1, o)
      if (!best || t.diff < best.diff) best = { o, ...t }
    }
    if (!best) continue
    placed.push(best.o)
    compared += best.c
    expectedChanged += best.m
    differing += best.diff
    union += best.u
    stillBefore += best.still
    for (const i of best.differsAt) differs[i] = 1
    for (let y = y0; y < y1; y++) counted.fill(1, y * W + x0, y * W + x1)
  }
  /**
   * Whether the current screen shows the recorded pixel `p` of `from` at (ax, ay), or, at another scale, at one of
   * its 8 neighbours: the program drew its content at that scale itself, and a stroke of a glyph or a line lands a
   * pixel off where the recorded one maps to.
   */
  function near(from: Uint8Array, p: number, ax: number, ay: number, reach: number): boolean {
    const A = act.data
    for (let dy = -reach; dy <= reach; dy++) {
      const y = ay + dy
      if (y < 0 || y >= act.height) continue
      for (let dx = -reach; dx <= reach; dx++) {
        const x = ax + dx
        if (x < 0 || x >= act.width) continue
        if (alike(from, p, A, (y * act.width + x) * 4, maxDelta)) return true
      }
    }
    return false
  }
  /** Counts of one region at one offset; pixels of earlier regions are not counted twice. */
  function tally(x0: number, y0: number, x1: number, y1: number, o: Placement) {
    let c = 0
    let m = 0
    let diff = 0
    let u = 0
    let still = 0
    const differsAt: number[] = []
    const R = recAfter.data
    const Bf = recBefore?.data
    for (let y = y0; y < y1; y++) {
      const ay = o.y(y)
      for (let x = x0; x < x1; x++) {
        const i = y * W + x
        if (!inRegion[i] || counted[i]) continue
        c++
        const changedHere = expectedMask ? (expectedMask[i] as number) : 0
        m += changedHere
        const ax = o.x(x)
        const p = i * 4
        let differsHere = true
        let likeBefore = false
        if (ax >= 0 && ay >= 0 && ax < act.width && ay < act.height) {
          differsHere = !near(R, p, ax, ay, o.reach)
          // still as before: the change shows nowhere around, and the pixel itself has the colour from before
          if (changedHere && Bf) likeBefore = differsHere && near(Bf, p, ax, ay, 0)
        }
        if (differsHere) {
          diff++
          differsAt.push(i)
        }
        if (differsHere || changedHere) u++
        if (likeBefore) still++
      }
    }
    return { c, m, diff, u, still, differsAt }
  }
  // a text caret shown in one screen and not the other (a recorded frame caught it lit, a capture hides it) is no
  // difference of the step's effect
  const caret = caretPixels(differs, W, H)
  differing -= caret
  union -= caret
  const pixelSimilarity = compared === 0 ? 1 : 1 - differing / compared
  const hasChange = expectedChanged >= minExpected
  const changeSimilarity = hasChange ? 1 - differing / union : null
  const unchangedShare = hasChange ? stillBefore / expectedChanged : null

  // U: changed during the replayed step, outside the expected regions (moved), and unlike the recorded after-frame
  let unexpectedRegions: Rect[] = []
  let unexpectedPixels = 0
  if (changedNow) {
    const mask = changedNow
    const R = recAfter.data
    const A = act.data
    const aw = act.width
    forEachSet(mask, (i) => {
      const ax = i % aw
      const ay = (i - ax) / aw
      const q = i * 4
      // the recording shows the same pixel there after the step (where the displacement puts it, or where it
      // was): the replay changed what the recording changed
      for (const o of placements) {
        const x = o.backX(ax)
        const y = o.backY(ay)
        if (x < 0 || y < 0 || x >= W || y >= H) continue
        if (alike(R, (y * W + x) * 4, A, q, maxDelta)) {
          mask[i] = 0
          return
        }
      }
      unexpectedPixels++
    })
    if (unexpectedPixels > 0) unexpectedRegions = changedRegions(mask, act.width, act.height).map(plain)
  }
  // a window laid out again: its widgets kept their size and look, not their places
  let relaid: RelaidOutComparison | null = null
  // (at the same scale: a program drawn larger, its target found at another scale, is mapped by that scale above)
  // (a window of its size whose items stand elsewhere before the step: the same window in another language; not
  // when the step's change is a window it opened, whose own box is known)
  // (when its window holds at least half of the recorded change)
  let all = 0
  if (expectedMask)
    forEachSet(expectedMask, () => {
      all++
    })
  const holds = (w: WindowPlace | null | undefined): w is WindowPlace => {
    if (!w || !expectedMask || all < minExpected) return false
    const [x0, y0, x1, y1] = bounds(w.recorded, W, H)
    let inside = 0
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) inside += expectedMask[y * W + x] as number
    return inside >= INSIDE_WINDOW_SHARE * all
  }
  const win = holds(input.window) ? input.window : null
  // the regions match as they are: no window of its size is looked at item by item (its items cost a pass over the
  // window's pixels, and a clean match decides before them)
  const cleanMatch =
    (changeSimilarity ?? pixelSimilarity) >= CLEAN_SIMILARITY &&
    unexpectedPixels < minUnexpected &&
    !(unchangedShare !== null && unchangedShare >= 0.8)
  if (
    win &&
    (relaidOut(win) ||
      (openedNow.length === 0 &&
        !cleanMatch &&
        before &&
        actBefore &&
        laidOutInPlace(
          win,
          { recordedBefore: before, actualBefore: actBefore, recordedAfter: rec, actualAfter: act },
          { threshold, ignore: input.ignore ?? [] },
        ))) &&
    Math.abs(scale - 1) < SAME_SCALE &&
    before &&
    actBefore &&
    expectedMask &&
    changedNow
  ) {
    const actualChange = changeMask(actBefore, act, {
      threshold,
      ...(input.ignore?.length ? { ignore: input.ignore.map((r) => (placements[0] as Placement).rect(r)) } : {}),
    })
    const compared = compareRelaidOut({
      recordedBefore: before,
      recordedAfter: rec,
      actualBefore: actBefore,
      actualAfter: act,
      window: win,
      recordedChange: expectedMask,
      actualChange,
      threshold,
      ...(input.targetBox
        ? {
            target: {
              recorded: plain(input.targetBox),
              now: input.actualTargetBox
                ? plain(input.actualTargetBox)
                : (placements[0] as Placement).rect(input.targetBox),
            },
          }
        : {}),
    })
    // what changed outside the window now, unlike the recording (the unexpected pixels left above)
    paint(changedNow, act.width, act.height, [grow(win.now, margin)], 0)
    let outside = 0
    forEachSet(changedNow, () => {
      outside++
    })
    relaid = {
      ...compared,
      unexpectedPixels: outside,
      unexpectedRegions: outside > 0 ? changedRegions(changedNow, act.width, act.height).map(plain) : [],
      changedElsewhere: outside >= minUnexpected,
    }
  }
  // content the program dealt anew (a random puzzle): the change compared as a change, when the pixels do not match
  const clean = hasChange && changeSimilarity !== null && changeSimilarity >= CLEAN_SIMILARITY
  // only for a program's window (a desktop step): a web page deals no puzzle, and there a wrong click that changed
  // about as much in the same colours (another tab's panel) must stay a failure, not become a warning
  const programWindow = Boolean(input.window || input.parentWindow || input.opened?.length)
  const dealt =
    programWindow &&
    !relaid &&
    !clean &&
    hasChange &&
    before &&
    actBefore &&
    expectedMask &&
    !palette?.applied &&
    act.width === actBefore.width &&
    act.height === actBefore.height
      ? compareDealtContent({
          recordedBefore: before,
          recordedAfter: rec,
          actualBefore: actBefore,
          actualAfter: act,
          recordedChange: expectedMask,
          placement: placements[0] as Placement,
          scale,
          // content drawn with its window: a window now larger than recorded draws its board larger
          ...(input.parentWindow && relaidOut(input.parentWindow)
            ? {
                areaScale:
                  (input.parentWindow.now.width * input.parentWindow.now.height) /
                  (input.parentWindow.recorded.width * input.parentWindow.recorded.height),
              }
            : {}),
          threshold,
          ...(input.ignore?.length ? { ignore: input.ignore } : {}),
          programWindow: input.parentWindow ?? input.window ?? null,
        })
      : null
  const expectedRegion = regions.length ? unionBox(regions) : null
  return {
    expectedRegions: regions,
    expectedRegion,
    actualRegion: regions.length
      ? unionBox(regions.map((r, k) => (placed[k] ?? (placements[0] as Placement)).rect(r)))
      : null,
    displacement: d,
    scale,
    comparedPixels: compared,
    expectedChangedPixels: expectedChanged,
    differingPixels: differing,
    pixelSimilarity,
    changeSimilarity,
    regionSimilarity: changeSimilarity ?? pixelSimilarity,
    unchangedShare,
    unexpectedRegions,
    unexpectedPixels,
    changedElsewhere: unexpectedPixels >= minUnexpected,
    hadExpectedChange: hasChange,
    expectedChangeMissing: unchangedShare !== null && unchangedShare >= 0.8,
    palette,
    relaidOut: relaid,
    openedWindows: openedNow,
    dealt,
  }
}

/**
 * Whether the recorded step drew the window it opened: at least 30 % of its recorded box changed during the step,
 * and its box now covers at least half of the recorded one where the step's placement puts it (a menu grown sideways
 * in another language still covers the recorded one). Pure.
 */
export function drawnByStep(
  window: WindowPlace,
  expectedMask: Uint8Array,
  width: number,
  height: number,
  placement: Placement,
): boolean {
  const r = window.recorded
  if (!(r.width > 0 && r.height > 0 && window.now.width > 0 && window.now.height > 0)) return false
  const [x0, y0, x1, y1] = bounds(r, width, height)
  let changed = 0
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) changed += expectedMask[y * width + x] as number
  if (changed < OPENED_DRAWN_SHARE * r.width * r.height) return false
  const at = placement.rect(r)
  const w = Math.min(at.x + at.width, window.now.x + window.now.width) - Math.max(at.x, window.now.x)
  const h = Math.min(at.y + at.height, window.now.y + window.now.height) - Math.max(at.y, window.now.y)
  return w > 0 && h > 0 && w * h >= OPENED_OVERLAP_SHARE * r.width * r.height
}
