import { type CandidateElement, type Frame, matchTemplate, type VisualHit } from '@qa/matcher'
import type { BoundingBox } from '@qa/model'
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
  await sharp(screenshotPng)
    .extract({ left, top, width: right - left, height: bottom - top })
    .png()
    .toFile(file)
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

/**
 * The visual strategy for web steps: finds the recorded element crop on the current screenshot (multi-scale
 * normalised cross-correlation) and answers with the smallest interactive candidate under the hit's centre.
 */
export async function findCropOnScreen<H>(
  screenshotPng: Uint8Array,
  crop: Frame,
  candidates: () => Promise<CandidateElement<H>[]>,
  opts: { threshold?: number; minScale?: number; maxScale?: number } = {},
): Promise<VisualHit<H> | null> {
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
  const under = (await candidates())
    .filter((c) => c.visible !== false && c.boundingBox)
    .filter((c) => {
      const b = c.boundingBox as BoundingBox
      return cx >= b.x && cx <= b.x + b.width && cy >= b.y && cy <= b.y + b.height
    })
    .sort((a, b) => area(a.boundingBox as BoundingBox) - area(b.boundingBox as BoundingBox))
  const hit: VisualHit<H> = { box: match.box, score: match.score }
  if (under[0]) hit.element = under[0]
  return hit
}
