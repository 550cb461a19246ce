/** The largest YIQ distance of two colours (black against white), as in pixelmatch. */
const MAX_YIQ_DELTA = 35215

/** pixelmatch's squared YIQ distance of the RGB pixels at byte offsets `i` of `a` and `j` of `b`. Pure. */
export function yiqDelta(a: Uint8Array, i: number, b: Uint8Array, j: number): number {
  const r1 = a[i] as number
  const g1 = a[i + 1] as number
  const b1 = a[i + 2] as number
  const r2 = b[j] as number
  const g2 = b[j + 1] as number
  const b2 = b[j + 2] as number
  const y = (r1 - r2) * 0.29889531 + (g1 - g2) * 0.58662247 + (b1 - b2) * 0.11448223
  const ii = (r1 - r2) * 0.59597799 - (g1 - g2) * 0.2741761 - (b1 - b2) * 0.32180189
  const q = (r1 - r2) * 0.21147017 - (g1 - g2) * 0.52261711 + (b1 - b2) * 0.31114694
  return 0.5053 * y * y + 0.299 * ii * ii + 0.1957 * q * q
}

/** The distance above which two colours differ, for a pixelmatch threshold 0–1. */
export function maxDeltaOf(threshold: number): number {
  return MAX_YIQ_DELTA * threshold * threshold
}

/** Whether the pixels at `i` of `a` and `j` of `b` look alike (equal, or within the distance). Pure. */
export function alike(a: Uint8Array, i: number, b: Uint8Array, j: number, maxDelta: number): boolean {
  return (a[i] === b[j] && a[i + 1] === b[j + 1] && a[i + 2] === b[j + 2]) || yiqDelta(a, i, b, j) <= maxDelta
}
