import { noiseFrame, pasteScaled } from '../src/internal/synthetic'
import { matchTemplate, templateScoreAt } from '../src/match-template'
const [seed, scale] = [163125839, 0.5809171213641415]
const template = noiseFrame(40, 24, seed, 8, 1)
const frame = noiseFrame(320, 200, seed + 1, 8, 1)
pasteScaled(frame, template, 0, 0, scale)
const m = matchTemplate(frame, template)
console.log(JSON.stringify(m), Math.round(40 * scale), Math.round(24 * scale))
import { scoreResampled } from '../src/locate-on-screen'
console.log('true', scoreResampled(frame, template, { x: 0, y: 0, width: 23, height: 14 }))
