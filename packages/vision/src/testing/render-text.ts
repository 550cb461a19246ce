/** One label to draw: text with its baseline-left position. */
export interface TextLabel {
  text: string
  x: number
  y: number
  fontSize?: number
  color?: string
  /** A filled rectangle drawn behind the text (a "button"). */
  background?: { x: number; y: number; width: number; height: number; color: string }
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)

/**
 * Renders labels to a PNG (sharp from SVG, font "Noto Sans CJK KR" so Hangul works) — for tests of OCR and
 * of code that needs a believable screenshot.
 */
export async function renderTextPng(
  labels: TextLabel[],
  size: { width: number; height: number; background?: string } = { width: 640, height: 360 },
): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp')
  const body = labels
    .map((l) => {
      const bg = l.background
        ? `<rect x="${l.background.x}" y="${l.background.y}" width="${l.background.width}" height="${l.background.height}" fill="${l.background.color}"/>`
        : ''
      return `${bg}<text x="${l.x}" y="${l.y}" font-family="Noto Sans CJK KR, DejaVu Sans, sans-serif" font-size="${
        l.fontSize ?? 32
      }" fill="${l.color ?? '#000000'}">${escapeXml(l.text)}</text>`
    })
    .join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="${
    size.background ?? '#ffffff'
  }"/>${body}</svg>`
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer())
}

/** A flat PNG of one colour with a few rectangles on it (for hash and transition tests). */
export async function renderBoxesPng(
  boxes: { x: number; y: number; width: number; height: number; color: string }[],
  size: { width: number; height: number; background?: string } = { width: 320, height: 240 },
): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp')
  const rects = boxes
    .map((b) => `<rect x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" fill="${b.color}"/>`)
    .join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="${
    size.background ?? '#ffffff'
  }"/>${rects}</svg>`
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer())
}
