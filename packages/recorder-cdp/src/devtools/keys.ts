/** Keys of a DevTools recording: modifier keys, chords (`keyDown Control, keyDown a, keyUp a, keyUp Control`). */
import type { DevtoolsStep } from './types'

export const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta'])
export const CHORD_RE = /^((?:(?:Control|Shift|Alt|Meta)\+)+)(.+)$/

/** Whether the key pressed at step `i` is released by a later keyUp before it is pressed again. */
export function releasedLater(steps: readonly DevtoolsStep[], i: number, key: string): boolean {
  for (let j = i + 1; j < steps.length; j++) {
    const s = steps[j] as DevtoolsStep
    if (s.key !== key) continue
    if (s.type === 'keyUp') return true
    if (s.type === 'keyDown') return false
  }
  return false
}

/** `keyDown M…, keyDown K, keyUp K, keyUp …M` (modifiers M) from index `i` → `"M+…+K"` and the steps it spans. */
export function matchChord(steps: readonly DevtoolsStep[], i: number): { key: string; length: number } | null {
  const mods: string[] = []
  let j = i
  while (j < steps.length && steps[j]?.type === 'keyDown' && MODIFIERS.has(steps[j]?.key as string)) {
    mods.push(steps[j]?.key as string)
    j++
  }
  if (mods.length === 0 || new Set(mods).size !== mods.length) return null
  const down = steps[j]
  const up = steps[j + 1]
  if (down?.type !== 'keyDown' || MODIFIERS.has(down.key as string)) return null
  if (up?.type !== 'keyUp' || up.key !== down.key) return null
  const ups = steps.slice(j + 2, j + 2 + mods.length)
  if (ups.length !== mods.length || !ups.every((s) => s.type === 'keyUp' && mods.includes(s.key as string))) return null
  if (new Set(ups.map((s) => s.key)).size !== mods.length) return null
  return { key: [...mods, down.key as string].join('+'), length: j + 2 + mods.length - i }
}
