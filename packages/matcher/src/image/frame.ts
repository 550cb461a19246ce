import { MatcherError } from '../errors'

/** A raw image: RGBA (`channels: 4`) or grey (`channels: 1`), row-major, no padding. */
export interface Frame {
  width: number
  height: number
  data: Uint8Array | Uint8ClampedArray
  channels: 1 | 4
}

/** Throws a `MatcherError` naming what is wrong when `f` is not a raw image of consistent size. */
export function assertFrame(f: Frame, what: 'frame' | 'template'): void {
  const code = what === 'frame' ? 'MATCHER_BAD_FRAME' : 'MATCHER_BAD_TEMPLATE'
  const ok =
    f &&
    Number.isInteger(f.width) &&
    Number.isInteger(f.height) &&
    f.width > 0 &&
    f.height > 0 &&
    (f.channels === 1 || f.channels === 4) &&
    (f.data instanceof Uint8Array || f.data instanceof Uint8ClampedArray)
  if (!ok) {
    throw new MatcherError(
      code,
      `The ${what} is not a raw image: expected { width, height (positive integers), data: Uint8Array, channels: 1 | 4 }.`,
      {
        hint: 'Decode PNGs first (e.g. with sharp: .raw().toBuffer({ resolveWithObject: true })) and pass the raw pixels.',
      },
    )
  }
  if (f.data.length !== f.width * f.height * f.channels) {
    throw new MatcherError(
      code,
      `The ${what}'s data has ${f.data.length} bytes; ${f.width}×${f.height}×${f.channels} needs ${f.width * f.height * f.channels}.`,
      { hint: 'Check width, height and channels (4 for RGBA, 1 for grey) against the pixel buffer.' },
    )
  }
}
