import {
  type CandidateElement,
  type Frame,
  matchTemplate,
  SAME_PIXELS_VISUAL_THRESHOLD,
  templateScoreAt,
  type VisualHit,
} from '@qa/matcher'
import type { BoundingBox } from '@qa/model'
import { writeFileAtomic } from '@qa/model/node'
import sharp from 'sharp'

/** Crops an element's box out of a screenshot (PNG bytes) into a PNG file; false when the box is unusable. */
export async function saveElementCrop(screenshotPng: Uint8Array, box: BoundingBox, file: string): Promise<boolean> {
  const meta = await sharp(screenshotPng).metadata()
  const width = meta.width ?? 0
  const height = meta.height ?? 0
  const left = Math.max(0, Math.floor(box.x))
  const top = Math.max(0, Math.floor(box.y))
  const right = Math.min(width, Math.ceil(box.x + box.width))
  const bottom = Math.min(height, Math.ceil(box.y + box.height))
  if (right - left < 8 || bottom - top < 8) return false
  const png = await sharp(screenshotPng)
    .extract({ left, top, width: right - left, height: bottom - top })
    .png()
    .toBuffer()
  // atomic: a crop is never left half-written
  await writeFileAtomic(file, png, { overwrite: true })
  return true
}

/** A PNG (bytes or file) as an RGBA frame for template matching. */
export async function decodeFrame(input: Uint8Array | string): Promise<Frame> {
  const { data, info } = await sharp(input).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    channels: 4,
  }
}

const area = (b: BoundingBox) => b.width * b.height

/** Where the visual strategy gets the page's interactive elements. */
export interface VisualCandidates<H> {
  /** Every visible interactive element (may be capped: then look-alikes are not counted). */
  all(): Promise<CandidateElement<H>[]>
  /** Whether `all` listed every one (not cut at a limit). */
  complete?: boolean
  /** Every interactive element a click at this point reaches (the element hit and its ancestors), uncapped. */
  under?(x: number, y: number): Promise<CandidateElement<H>[]>
}

/**
 * The visual strategy for web steps: finds the recorded element crop on the current screenshot (multi-scale
 * normalised cross-correlation) and answers with the smallest interactive candidate under the hit's centre,
 * how many other elements show the same pixels, or that nothing interactive is under the hit.
 */
export async function findCropOnScreen<H>(
  screenshotPng: Uint8Array,
  crop: Frame,
  candidates: (() => Promise<CandidateElement<H>[]>) | VisualCandidates<H>,
  opts: { threshold?: number; minScale?: number; maxScale?: number } = {},
): Promise<VisualHit<H> | null> {
  const source: VisualCandidates<H> = typeof candidates === 'function' ? { all: candidates } : candidates
  const frame = await decodeFrame(screenshotPng)
  if (crop.width > frame.width || crop.height > frame.height) return null
  const match = matchTemplate(frame, crop, {
    threshold: opts.threshold ?? 0,
    minScale: opts.minScale ?? 0.8,
    maxScale: opts.maxScale ?? 1.25,
  })
  if (!match) return null
  const cx = match.box.x + match.box.width / 2
  const cy = match.box.y + match.box.height / 2
  const contains = (c: CandidateElement<H>) => {
    const b = c.boundingBox as BoundingBox
    return cx >= b.x && cx <= b.x + b.width && cy >= b.y && cy <= b.y + b.height
  }
  const shown = (list: CandidateElement<H>[]) => list.filter((c) => c.visible !== false && c.boundingBox)
  const all = shown(await source.all())
  let under = all.filter(contains)
  // The listing may have been cut at its limit before reaching the element under the pixels, or the element
  // draws no box of its own (`display: contents`): ask what a click there reaches. Such an element stands
  // where its pixels are.
  if (under.length === 0 && source.under)
    under = (await source.under(cx, cy)).map((c) =>
      c.boundingBox && c.boundingBox.width > 0 && c.boundingBox.height > 0
        ? c
        : { ...c, boundingBox: match.box, visible: true },
    )
  under.sort((a, b) => area(a.boundingBox as BoundingBox) - area(b.boundingBox as BoundingBox))
  const hit: VisualHit<H> = { box: match.box, score: match.score }
  if (under[0]) hit.element = under[0]
  else if (source.under) hit.nothingInteractive = true
  if (under[0] && source.complete && match.score >= SAME_PIXELS_VISUAL_THRESHOLD && Math.abs(match.scale - 1) <= 0.05)
    hit.lookAlikes = countLookAlikes(frame, crop, under[0], all)
  return hit
}

/** How far (px) around another element's centre the recorded crop is tried when counting look-alikes. */
const LOOK_ALIKE_SLACK = 3

/**
 * Other visible interactive elements of about the crop's size (±20 %) whose own pixels show the crop too
 * (NCC ≥ SAME_PIXELS_VISUAL_THRESHOLD within a few pixels of their centre): identical icon buttons, the
 * checkboxes of a list, a cloned control. The hit's element and its ancestors/descendants do not count; an
 * element of the same tag and role outside the screenshot counts (its pixels are unknown).
 */
export function countLookAlikes<H>(
  frame: Frame,
  crop: Frame,
  self: CandidateElement<H>,
  candidates: readonly CandidateElement<H>[],
): number {
  const own = self.boundingBox as BoundingBox
  const overlaps = (b: BoundingBox) =>
    b.x < own.x + own.width && own.x < b.x + b.width && b.y < own.y + own.height && own.y < b.y + b.height
  let n = 0
  for (const c of candidates) {
    const b = c.boundingBox
    if (c === self || c.visible === false || !b || overlaps(b)) continue
    if (b.width < crop.width * 0.8 || b.width > crop.width * 1.25) continue
    if (b.height < crop.height * 0.8 || b.height > crop.height * 1.25) continue
    const x0 = Math.round(b.x + b.width / 2 - crop.width / 2)
    const y0 = Math.round(b.y + b.height / 2 - crop.height / 2)
    if (x0 < 0 || y0 < 0 || x0 + crop.width > frame.width || y0 + crop.height > frame.height) {
      // out of the screenshot: its pixels are unknown, so an element of the same make might look the same
      if (c.tagName === self.tagName && c.axRole === self.axRole) n++
      continue
    }
    let best = 0
    for (let dy = -LOOK_ALIKE_SLACK; dy <= LOOK_ALIKE_SLACK && best < SAME_PIXELS_VISUAL_THRESHOLD; dy++)
      for (let dx = -LOOK_ALIKE_SLACK; dx <= LOOK_ALIKE_SLACK && best < SAME_PIXELS_VISUAL_THRESHOLD; dx++)
        best = Math.max(best, templateScoreAt(frame, crop, x0 + dx, y0 + dy))
    if (best >= SAME_PIXELS_VISUAL_THRESHOLD) n++
  }
  return n
}
