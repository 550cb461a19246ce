import type { Action } from '@qa/model'

/** How a step's target is named in messages: its role and name as recorded, else the recorded point. */
export function targetLabel(action: Action): string {
  const id = action.identity
  if (!id) return `(${action.x}, ${action.y})`
  const name = id.axName || id.ariaLabel || id.textContent || id.placeholder || id.name || id.id
  return `${id.axRole ?? id.tagName}${name ? ` "${name.slice(0, 50)}"` : ''}`
}
