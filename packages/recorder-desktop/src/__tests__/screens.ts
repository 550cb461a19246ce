import type { RgbaFrame } from '../frame'
import { solidFrame } from '../memory-screen'

export interface TestButton {
  x: number
  y: number
  width: number
  height: number
  rgb: [number, number, number]
  /** Seed of the "label" pattern drawn inside (distinct per button). */
  label: number
}

/** A screen with textured buttons (labels drawn as bar patterns, so template matching has structure). */
export function buttonScreen(
  width: number,
  height: number,
  buttons: TestButton[],
  bg: [number, number, number] = [30, 42, 68],
): RgbaFrame {
  const rects: Parameters<typeof solidFrame>[3] = []
  for (const b of buttons) {
    rects.push({ x: b.x, y: b.y, width: b.width, height: b.height, rgb: b.rgb })
    const bars = 6
    const barW = Math.max(2, Math.floor(b.width / (bars * 2 + 2)))
    for (let i = 0; i < bars; i++) {
      const h = Math.max(3, Math.round(((((b.label * 7 + i * 13) % 5) + 2) / 7) * b.height * 0.6))
      rects.push({
        x: b.x + barW * (1 + i * 2),
        y: b.y + Math.round((b.height - h) / 2),
        width: barW,
        height: h,
        rgb: [250, 250, 250],
      })
    }
  }
  return solidFrame(width, height, bg, rects)
}

export const centre = (b: TestButton) => ({ x: b.x + Math.round(b.width / 2), y: b.y + Math.round(b.height / 2) })
export const inside = (b: TestButton, p: { x: number; y: number }) =>
  p.x >= b.x && p.x < b.x + b.width && p.y >= b.y && p.y < b.y + b.height
