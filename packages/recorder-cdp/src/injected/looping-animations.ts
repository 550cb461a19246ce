/**
 * What keeps moving on a page by itself: the boxes (in a screenshot's pixels: the viewport's CSS pixels times the
 * device pixel ratio, widened by `margin` CSS pixels) of the elements running an animation
 * that never ends (CSS `animation-iteration-count: infinite` and Web Animations with infinite iterations: a
 * spinner, a pulsing badge, a blinking dot). Their pixels in a screenshot depend on the moment it was taken, so they
 * are not a step's evidence. A page function: no imports, nothing written into the page.
 */
export function loopingAnimationBoxesInPage(margin: number): { x: number; y: number; width: number; height: number }[] {
  if (typeof document.getAnimations !== 'function') return []
  const boxes: { x: number; y: number; width: number; height: number }[] = []
  const seen = new Set<Element>()
  for (const animation of document.getAnimations()) {
    if (animation.playState !== 'running') continue
    const effect = animation.effect as KeyframeEffect | null
    if (!effect || effect.getComputedTiming().iterations !== Number.POSITIVE_INFINITY) continue
    const target = effect.target
    if (!target || seen.has(target)) continue
    seen.add(target)
    const r = target.getBoundingClientRect()
    if (r.width === 0 && r.height === 0) continue
    // what an animation draws can reach past the box (a pulse's shadow, a scaled or pseudo-element dot)
    const left = Math.max(0, r.left - margin)
    const top = Math.max(0, r.top - margin)
    const right = Math.min(innerWidth, r.right + margin)
    const bottom = Math.min(innerHeight, r.bottom + margin)
    const k = devicePixelRatio || 1
    if (right > left && bottom > top)
      boxes.push({
        x: Math.floor(left * k),
        y: Math.floor(top * k),
        width: Math.ceil((right - left) * k),
        height: Math.ceil((bottom - top) * k),
      })
  }
  return boxes
}
