import { join, relative } from 'node:path'
import type { Action } from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import type { Page } from 'playwright-core'
import { type BufferedFrame, composeFrameShot, type FrameBuffer, type PixelBox } from '../browser/cdp-frame-buffer'
import { evaluateInRecorderTop } from '../browser/cdp-recorder-world'
import { secretFieldsOf, type ViewportBox } from '../browser/cdp-secret-fields'
import { MASK_COLOR, maskedScreenshot, passwordBoxes } from '../browser/masked-screenshot'
import { saveElementCrop } from '../browser/visual'
import { CARET_NOTES_KEY, type CaretNote } from '../injected/caret-notes'
import { loopingAnimationBoxesInPage } from '../injected/page-scripts'
import { caretsAround } from './hand-events'
import type { PointerDownSnapshot } from './page-input-event'

const pad = (n: number) => String(n).padStart(3, '0')

/**
 * A recorded screenshot: its path (relative to the case), its bytes, its unknown regions (pixels), and what loops
 * on the page by itself at its moment (`loopingAnimationBoxes`, pixels).
 */
export interface Shot {
  path: string
  bytes: Buffer
  unknown?: PixelBox[]
  looping?: PixelBox[]
}

/**
 * Sets a step's before- or after-screenshot and the unknown regions of that screenshot; what loops on the page by
 * itself joins the step's animated regions (compared in neither image, outlined in the report).
 */
export function setShot(action: Action, which: 'before' | 'after', shot: Shot | undefined): void {
  if (!shot) return
  if (which === 'before') action.screenshotBeforePath = shot.path
  else action.screenshotPath = shot.path
  const animated = [...(action.animatedRegions ?? [])]
  for (const b of shot.looping ?? [])
    if (!animated.some((a) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height))
      animated.push({ ...b })
  if (animated.length) action.animatedRegions = animated
  const regions = { ...(action.unknownRegions ?? {}) }
  if (shot.unknown?.length) regions[which] = shot.unknown.map((b) => ({ ...b }))
  else delete regions[which]
  if (regions.before || regions.after) action.unknownRegions = regions
  else delete action.unknownRegions
}

/** Where a recording's screenshots go and which page they are of (the flow's page changes when a step opens one). */
export interface StepShotsOptions {
  currentPage: () => Page
  caseDir: string
  assetsDir: string
  /** False: no screenshot is taken (every function answers undefined). */
  screenshots: boolean
}

/**
 * A recording's screenshots of its steps, named `step-NNN-before.png`, `-after.png`, `-element.png` in the case's
 * screenshot folder: live captures with secrets painted over, or screencast frames of a given moment.
 */
export function createStepShots({ currentPage, caseDir, assetsDir, screenshots }: StepShotsOptions) {
  async function shot(index: number, which: 'before' | 'after'): Promise<string | undefined> {
    return (await shotWithBytes(index, which))?.path
  }

  async function shotWithBytes(index: number, which: 'before' | 'after'): Promise<Shot | undefined> {
    if (!screenshots) return undefined
    const file = join(assetsDir, `step-${pad(index)}-${which}.png`)
    const [bytes, looping] = await Promise.all([maskedScreenshot(currentPage(), file), loopingOn(currentPage())])
    return { path: relative(caseDir, file).split('\\').join('/'), bytes, ...(looping.length ? { looping } : {}) }
  }

  /**
   * A recorded screenshot from one screencast frame (what the page showed at that moment, nothing composited in):
   * secrets painted over as they were then (`extraMasks`) and are now, and the recorder's toolbar, which a
   * screencast shows, painted over and returned as an unknown region (never compared on replay).
   */
  async function frameShot(
    index: number,
    which: 'before' | 'after',
    frame: BufferedFrame,
    extraMasks: readonly ViewportBox[] = [],
  ): Promise<Shot | undefined> {
    if (!screenshots) return undefined
    const [secrets, passwords, toolbar, carets, view, looping] = await Promise.all([
      secretFieldsOf(currentPage())
        .boxes()
        .catch((): ViewportBox[] => []),
      passwordBoxes(currentPage()),
      // the toolbar lives in the recorder's world (the page's scripts cannot reach it)
      evaluateInRecorderTop(
        currentPage(),
        () => {
          const host = (window as unknown as Record<symbol, Element | undefined>)[Symbol.for('qa.recorderToolbar')]
          const r = host?.isConnected ? host.getBoundingClientRect() : null
          // with a margin for its shadow, which falls outside its box
          return r ? { x: r.left - 16, y: r.top - 16, width: r.width + 32, height: r.height + 32 } : null
        },
        undefined,
      ).catch(() => null),
      // where the text caret blinked then (the input reporter's notes, in the same world)
      evaluateInRecorderTop(
        currentPage(),
        (key) => (window as unknown as Record<symbol, CaretNote[] | undefined>)[Symbol.for(key)] ?? [],
        CARET_NOTES_KEY,
      ).catch((): CaretNote[] => []),
      currentPage()
        .evaluate(() => ({ width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio }))
        .catch(() => null),
      loopingOn(currentPage()),
    ])
    // the size a live capture of the page has: the viewport in device pixels
    const css = currentPage().viewportSize() ?? (view ? { width: view.width, height: view.height } : null)
    const dpr = view?.dpr ?? 1
    const size = css ? { width: Math.round(css.width * dpr), height: Math.round(css.height * dpr) } : null
    const { png, unknown } = await composeFrameShot(frame.png, {
      size,
      masks: [...extraMasks, ...secrets, ...passwords],
      unknown: toolbar ? [toolbar] : [],
      blinking: caretsAround(carets, frame.atMs),
      cssWidth: css?.width ?? null,
      maskColor: MASK_COLOR,
    })
    const file = join(assetsDir, `step-${pad(index)}-${which}.png`)
    await writeFileAtomic(file, png, { overwrite: true })
    return {
      path: relative(caseDir, file).split('\\').join('/'),
      bytes: png,
      unknown,
      ...(looping.length ? { looping } : {}),
    }
  }

  /** The newest screencast frame older than `atMs` as the step's before-screenshot, or undefined without one. */
  async function frameBefore(
    index: number,
    frames: FrameBuffer | undefined,
    atMs: number | undefined,
    atDown?: PointerDownSnapshot | null,
    masksAt?: (frameAtMs: number) => ViewportBox[],
  ): Promise<Shot | undefined> {
    if (frames && atMs !== undefined) await frames.arrivedPast(atMs)
    const frame = frames && atMs !== undefined ? frames.before(atMs) : null
    if (!frame) return undefined
    const masks = [...(atDown?.passwords ?? []), ...(masksAt?.(frame.atMs) ?? [])]
    return frameShot(index, 'before', frame, masks).catch(() => undefined)
  }

  /**
   * A click's before-screenshot by hand: the newest screencast frame older than the pointer-down (what the person
   * saw before the page reacted). Without such a frame, a live capture as it is.
   */
  async function pointerDownShot(
    index: number,
    frames: FrameBuffer | undefined,
    atMs: number | undefined,
    atDown: PointerDownSnapshot | null | undefined,
    masksAt?: (frameAtMs: number) => ViewportBox[],
  ): Promise<Shot | undefined> {
    return (await frameBefore(index, frames, atMs, atDown, masksAt)) ?? shotWithBytes(index, 'before')
  }

  /** The element's pixels, for the visual strategy on replay. */
  async function crop(
    index: number,
    before: { bytes: Buffer } | undefined,
    action: Omit<Action, 'timestamp'>,
  ): Promise<string | undefined> {
    const box = action.identity?.boundingBox
    if (!before || !box) return undefined
    const file = join(assetsDir, `step-${pad(index)}-element.png`)
    const saved = await saveElementCrop(before.bytes, box, file).catch(() => false)
    return saved ? relative(caseDir, file).split('\\').join('/') : undefined
  }

  return { shot, shotWithBytes, frameShot, frameBefore, pointerDownShot, crop }
}

/**
 * What loops on the page by itself now (`loopingAnimationBoxesInPage`), in screenshot pixels: read in the
 * recorder's world when the page has one (the page's scripts cannot answer for it), else in the page.
 */
async function loopingOn(page: Page): Promise<PixelBox[]> {
  return evaluateInRecorderTop(page, loopingAnimationBoxesInPage, LOOPING_MARGIN)
    .catch(() => page.evaluate(loopingAnimationBoxesInPage, LOOPING_MARGIN))
    .catch((): PixelBox[] => [])
}

/** CSS pixels around a looping element that its animation may draw on (a pulse's shadow, a scaled dot). */
const LOOPING_MARGIN = 6

/** A recording's step screenshots (`createStepShots`). */
export type StepShots = ReturnType<typeof createStepShots>
