import type { ElementIdentity } from '@qa/model'

const PRIVATE_USE = /\p{Co}/gu
/** Font Awesome's style and size classes: they say how, not which icon. */
const ICON_STYLE = /^fa-(solid|regular|brands|light|thin|duotone|sharp|fw|lg|xs|sm|xl|\d+x|spin|pulse)$/

/**
 * What a step description calls an element: its accessible name, text or placeholder. An icon-font glyph
 * (a private-use character such as Font Awesome's U+F0E0) prints as nothing in a terminal or a report, so it is
 * left out; a name made only of glyphs becomes `(icon fa-envelope)` from the recorded icon classes, or `(icon)`.
 * Null when the element has no name at all.
 */
export function elementLabel(identity: ElementIdentity): string | null {
  const raw = identity.axName || identity.ariaLabel || identity.placeholder || identity.textContent || identity.name
  if (!raw) return null
  const words = raw.replace(PRIVATE_USE, '').replace(/\s+/g, ' ').trim()
  if (words) return `"${words.slice(0, 60)}"`
  if (words === raw.trim()) return null
  const icon = identity.iconClasses?.filter((c) => c.includes('-') && !ICON_STYLE.test(c)).at(-1)
  return icon ? `(icon ${icon})` : '(icon)'
}
