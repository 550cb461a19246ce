/** Grey images and the integral-image helpers behind template matching. All pure, no allocation surprises. */

export interface Grey {
  width: number
  height: number
  /** One value per pixel, row-major. */
  data: ArrayLike<number>
}

/** Integral image: S[(y)*(w+1)+x] = sum of pixels above and left of (x, y), exclusive. */
export type Integral = Float64Array | Uint32Array

export interface GreyWithIntegral {
  grey: Uint8Array
  integral: Integral
  width: number
  height: number
}

/** RGBA or grey bytes → grey bytes (BT.601 luma, integer) and its integral image, in one pass. */
export function greyAndIntegral(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  channels: 1 | 4,
): GreyWithIntegral {
  const grey =
    channels === 1
      ? data instanceof Uint8Array
        ? data
        : new Uint8Array(data.buffer, data.byteOffset, data.length)
      : new Uint8Array(width * height)
  const stride = width + 1
  const integral: Integral =
    width * height * 255 < 2 ** 32 ? new Uint32Array(stride * (height + 1)) : new Float64Array(stride * (height + 1))
  for (let y = 0; y < height; y++) {
    let rowSum = 0
    const above = y * stride + 1
    const here = above + stride
    const rowStart = y * width
    if (channels === 4) {
      let p = rowStart * 4
      for (let x = 0; x < width; x++, p += 4) {
        const g = ((data[p] as number) * 77 + (data[p + 1] as number) * 150 + (data[p + 2] as number) * 29) >> 8
        grey[rowStart + x] = g
        rowSum += g
        integral[here + x] = (integral[above + x] as number) + rowSum
      }
    } else {
      for (let x = 0; x < width; x++) {
        rowSum += grey[rowStart + x] as number
        integral[here + x] = (integral[above + x] as number) + rowSum
      }
    }
  }
  return { grey, integral, width, height }
}

/** Sum of the integral's image over [x0, x1) × [y0, y1), with fractional bounds (bilinear, exact for pixels). */
export function areaSum(
  integral: ArrayLike<number>,
  stride: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): number {
  return (
    at(integral, stride, x1, y1) -
    at(integral, stride, x0, y1) -
    at(integral, stride, x1, y0) +
    at(integral, stride, x0, y0)
  )
}

function at(s: ArrayLike<number>, stride: number, x: number, y: number): number {
  const rows = s.length / stride - 1
  if (x < 0) x = 0
  else if (x > stride - 1) x = stride - 1
  if (y < 0) y = 0
  else if (y > rows) y = rows
  const xi = Math.floor(x)
  const yi = Math.floor(y)
  const fx = x - xi
  const fy = y - yi
  const i = yi * stride + xi
  const a = s[i] as number
  if (fx === 0 && fy === 0) return a
  const b = fx === 0 ? a : (s[i + 1] as number)
  const c = fy === 0 ? a : (s[i + stride] as number)
  const d = fx === 0 ? c : fy === 0 ? b : (s[i + stride + 1] as number)
  return a * (1 - fx) * (1 - fy) + b * fx * (1 - fy) + c * (1 - fx) * fy + d * fx * fy
}

/** Integral image (Float64) of a small float image, plus the integral of its squares. */
export function integrals(
  data: ArrayLike<number>,
  width: number,
  height: number,
): { sum: Float64Array; sq: Float64Array } {
  const stride = width + 1
  const sum = new Float64Array(stride * (height + 1))
  const sq = new Float64Array(stride * (height + 1))
  for (let y = 0; y < height; y++) {
    let rs = 0
    let rq = 0
    const above = y * stride + 1
    const here = above + stride
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x] as number
      rs += v
      rq += v * v
      sum[here + x] = (sum[above + x] as number) + rs
      sq[here + x] = (sq[above + x] as number) + rq
    }
  }
  return { sum, sq }
}

/**
 * Box-downsample by an integer factor f using the integral image: each output pixel is the mean of an
 * f×f block. Output size floor(w/f) × floor(h/f). Optionally only a window [x0, x0+w) × [y0, y0+h) of the output.
 */
export function boxDownsample(
  integral: Integral,
  width: number,
  height: number,
  f: number,
  window?: { x: number; y: number; width: number; height: number },
): { data: Float32Array; width: number; height: number } {
  const stride = width + 1
  const fullW = Math.floor(width / f)
  const fullH = Math.floor(height / f)
  const wx = window ? window.x : 0
  const wy = window ? window.y : 0
  const ow = window ? window.width : fullW
  const oh = window ? window.height : fullH
  const out = new Float32Array(ow * oh)
  const inv = 1 / (f * f)
  for (let j = 0; j < oh; j++) {
    const y0 = (wy + j) * f
    const y1 = y0 + f
    if (y0 < 0 || y1 > height) continue
    const r0 = y0 * stride
    const r1 = y1 * stride
    for (let i = 0; i < ow; i++) {
      const x0 = (wx + i) * f
      const x1 = x0 + f
      if (x0 < 0 || x1 > width) continue
      out[j * ow + i] =
        ((integral[r1 + x1] as number) -
          (integral[r1 + x0] as number) -
          (integral[r0 + x1] as number) +
          (integral[r0 + x0] as number)) *
        inv
    }
  }
  return { data: out, width: ow, height: oh }
}

/** Integral image (Float64) of a float image, without the squares (see `integrals`). */
export function integralOnly(data: ArrayLike<number>, width: number, height: number): Float64Array {
  const stride = width + 1
  const sum = new Float64Array(stride * (height + 1))
  for (let y = 0; y < height; y++) {
    let rs = 0
    const above = y * stride + 1
    const here = above + stride
    const row = y * width
    for (let x = 0; x < width; x++) {
      rs += data[row + x] as number
      sum[here + x] = (sum[above + x] as number) + rs
    }
  }
  return sum
}

/**
 * Resizes a small grey image to outW × outH: area averaging when shrinking (matches what a box-downsampled
 * screen shows), bilinear when enlarging.
 */
export function resize(src: Grey, _srcIntegral: Float64Array | null, outW: number, outH: number): Float32Array {
  const out = new Float32Array(outW * outH)
  const sx = src.width / outW
  const sy = src.height / outH
  if (sx >= 1 && sy >= 1) {
    // separable area averaging (the same values as area sums of the integral image, without its lookups)
    const tmp = new Float32Array(src.height * outW)
    const d = src.data
    for (let i = 0; i < outW; i++) {
      const x0 = i * sx
      const x1 = (i + 1) * sx
      const first = Math.floor(x0)
      const last = Math.min(src.width - 1, Math.ceil(x1) - 1)
      for (let y = 0; y < src.height; y++) {
        const row = y * src.width
        let acc = 0
        for (let x = first; x <= last; x++) {
          const cover = Math.min(x + 1, x1) - Math.max(x, x0)
          acc += (d[row + x] as number) * cover
        }
        tmp[y * outW + i] = acc
      }
    }
    const inv = 1 / (sx * sy)
    for (let j = 0; j < outH; j++) {
      const y0 = j * sy
      const y1 = (j + 1) * sy
      const first = Math.floor(y0)
      const last = Math.min(src.height - 1, Math.ceil(y1) - 1)
      for (let i = 0; i < outW; i++) {
        let acc = 0
        for (let y = first; y <= last; y++)
          acc += (tmp[y * outW + i] as number) * (Math.min(y + 1, y1) - Math.max(y, y0))
        out[j * outW + i] = acc * inv
      }
    }
    return out
  }
  bilinearInto(src.data, src.width, src.height, 1, out, outW, outH)
  return out
}

/**
 * Bilinear resampling of a row-major image of `channels` interleaved channels into `out` (outW × outH, the same
 * channels), sampling at pixel centres; a whole-number output array rounds (`Uint8Array`), a float one keeps the
 * fraction.
 */
export function bilinearInto(
  src: ArrayLike<number>,
  width: number,
  height: number,
  channels: number,
  out: Uint8Array | Float32Array,
  outW: number,
  outH: number,
): void {
  const sx = width / outW
  const sy = height / outH
  const round = out instanceof Uint8Array
  for (let j = 0; j < outH; j++) {
    const fy = Math.min(height - 1, Math.max(0, (j + 0.5) * sy - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(height - 1, y0 + 1)
    const ty = fy - y0
    for (let i = 0; i < outW; i++) {
      const fx = Math.min(width - 1, Math.max(0, (i + 0.5) * sx - 0.5))
      const x0 = Math.floor(fx)
      const x1 = Math.min(width - 1, x0 + 1)
      const tx = fx - x0
      for (let c = 0; c < channels; c++) {
        const top =
          (src[(y0 * width + x0) * channels + c] as number) * (1 - tx) +
          (src[(y0 * width + x1) * channels + c] as number) * tx
        const bottom =
          (src[(y1 * width + x0) * channels + c] as number) * (1 - tx) +
          (src[(y1 * width + x1) * channels + c] as number) * tx
        const v = top * (1 - ty) + bottom * ty
        out[(j * outW + i) * channels + c] = round ? Math.round(v) : v
      }
    }
  }
}

/** Zero-mean copy of a template and the L2 norm of that copy (0 for a flat template). */
export function zeroMean(t: Float32Array): { data: Float32Array; norm: number } {
  let mean = 0
  for (let i = 0; i < t.length; i++) mean += t[i] as number
  mean /= t.length || 1
  const data = new Float32Array(t.length)
  let ss = 0
  for (let i = 0; i < t.length; i++) {
    const v = (t[i] as number) - mean
    data[i] = v
    ss += v * v
  }
  return { data, norm: Math.sqrt(ss) }
}

/** Grey value (BT.601 luma, integer) of pixel i of a raw RGBA or grey buffer. */
export function lumaAt(data: Uint8Array | Uint8ClampedArray, channels: 1 | 4, i: number): number {
  if (channels === 1) return data[i] as number
  const p = i * 4
  return ((data[p] as number) * 77 + (data[p + 1] as number) * 150 + (data[p + 2] as number) * 29) >> 8
}

/**
 * The half-resolution grey image (mean of each 2×2 block) of a raw frame, in one pass over the pixels;
 * RGBA is read four bytes at a time when the buffer is aligned.
 */
export function halfGrey(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  channels: 1 | 4,
): { data: Float32Array; width: number; height: number } {
  const w = width >> 1
  const h = height >> 1
  const out = new Float32Array(w * h)
  if (channels === 4 && LITTLE_ENDIAN && data.byteOffset % 4 === 0) {
    // sum the four pixels' channels first (red and blue side by side in one 32-bit lane pair), then weigh
    // once: the exact mean of the un-truncated lumas, within 1 grey level of the mean of integer lumas
    const u32 = new Uint32Array(data.buffer, data.byteOffset, width * height)
    for (let y = 0; y < h; y++) {
      let p = 2 * y * width
      let q = p + width
      const o = y * w
      for (let x = 0; x < w; x++, p += 2, q += 2) {
        const a = u32[p] as number
        const b = u32[p + 1] as number
        const c = u32[q] as number
        const d = u32[q + 1] as number
        const rb = (a & 0xff00ff) + (b & 0xff00ff) + (c & 0xff00ff) + (d & 0xff00ff)
        const g = ((a >>> 8) & 255) + ((b >>> 8) & 255) + ((c >>> 8) & 255) + ((d >>> 8) & 255)
        out[o + x] = ((rb & 0xffff) * 77 + g * 150 + (rb >>> 16) * 29) * (1 / 1024)
      }
    }
    return { data: out, width: w, height: h }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 2 * y * width + 2 * x
      out[y * w + x] =
        (lumaAt(data, channels, i) +
          lumaAt(data, channels, i + 1) +
          lumaAt(data, channels, i + width) +
          lumaAt(data, channels, i + width + 1)) *
        0.25
    }
  }
  return { data: out, width: w, height: h }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1
