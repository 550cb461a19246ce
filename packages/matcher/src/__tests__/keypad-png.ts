import sharp from 'sharp'
import type { Frame } from '../image/match-template'

export interface KeyBox {
  label: string
  x: number
  y: number
  width: number
  height: number
}

export interface KeypadOptions {
  /** Screen size (default 1920×1080). */
  width?: number
  height?: number
  /** Top-left corner of the keypad on the screen. */
  x: number
  y: number
  /** Rows of key labels, e.g. [['7','8','9'], …]. */
  rows: string[][]
  keyWidth?: number
  keyHeight?: number
  gap?: number
  /** Glyph size in px (default 22). */
  fontSize?: number
  /** Key face colour (default #e8e8e8): another theme. */
  keyFill?: string
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * A calculator-like screen rendered by sharp (librsvg text) and encoded as a real PNG: a window with a display
 * and a grid of keys of the same size, colour and bevel that differ only by their glyph. Returns the PNG, the
 * decoded RGBA frame (decoded from that PNG) and every key's box.
 */
export async function keypadPng(opts: KeypadOptions): Promise<{ png: Buffer; frame: Frame; keys: KeyBox[] }> {
  const W = opts.width ?? 1920
  const H = opts.height ?? 1080
  const kw = opts.keyWidth ?? 64
  const kh = opts.keyHeight ?? 48
  const gap = opts.gap ?? 6
  const fs = opts.fontSize ?? 22
  const keys: KeyBox[] = []
  const parts: string[] = []
  const cols = Math.max(...opts.rows.map((r) => r.length))
  const winW = cols * (kw + gap) + gap + 16
  const winH = opts.rows.length * (kh + gap) + gap + 80
  parts.push(
    `<rect x="${opts.x - 8}" y="${opts.y - 72}" width="${winW}" height="${winH}" fill="#d9d9d9" stroke="#555" stroke-width="1"/>`,
    `<rect x="${opts.x}" y="${opts.y - 60}" width="${winW - 16}" height="44" fill="#ffffff" stroke="#888"/>`,
    `<text x="${opts.x + winW - 26}" y="${opts.y - 28}" font-family="Noto Sans CJK KR, DejaVu Sans, sans-serif" font-size="24" text-anchor="end" fill="#000">0</text>`,
  )
  for (const [r, row] of opts.rows.entries()) {
    for (const [c, label] of row.entries()) {
      const x = opts.x + c * (kw + gap)
      const y = opts.y + r * (kh + gap)
      keys.push({ label, x, y, width: kw, height: kh })
      parts.push(
        `<rect x="${x}" y="${y}" width="${kw}" height="${kh}" fill="${opts.keyFill ?? '#e8e8e8'}" stroke="#7a7a7a" stroke-width="2"/>`,
        `<line x1="${x + 2}" y1="${y + 2}" x2="${x + kw - 2}" y2="${y + 2}" stroke="#ffffff" stroke-width="2"/>`,
        `<text x="${x + kw / 2}" y="${y + kh / 2 + fs * 0.35}" font-family="Noto Sans CJK KR, DejaVu Sans, sans-serif" font-size="${fs}" text-anchor="middle" fill="#111">${esc(label)}</text>`,
      )
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#3a6ea5"/>${parts.join('')}</svg>`
  const png = await sharp(Buffer.from(svg)).png().toBuffer()
  return { png, frame: await decodePng(png), keys }
}

/** A PNG decoded to raw RGBA. */
export async function decodePng(png: Buffer): Promise<Frame> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { width: info.width, height: info.height, data: new Uint8Array(data), channels: 4 }
}

/** A crop of a frame (the recorded element crop), copied. */
export function crop(frame: Frame, x: number, y: number, width: number, height: number): Frame {
  const ch = frame.channels
  const data = new Uint8Array(width * height * ch)
  for (let j = 0; j < height; j++)
    data.set(
      frame.data.subarray(((y + j) * frame.width + x) * ch, ((y + j) * frame.width + x + width) * ch),
      j * width * ch,
    )
  return { width, height, data, channels: ch }
}
