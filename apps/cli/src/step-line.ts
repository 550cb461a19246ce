import type { Action } from '@qa/model'
import { truncateToColumns } from './display-width'

/** A name in quotes, at most 40 terminal columns (20 Hangul syllables). */
const quote = (s: string) => `"${truncateToColumns(s, 40)}"`

/**
 * What replay will look for first, in the order of the web strategies (SPEC §5): `role button "Save"`,
 * `aria-label "…"`, `name "…"`, `test id "…"`, `css …`; `coordinates` for a step without a target.
 */
export function strategyLabel(action: Action): string {
  const id = action.identity
  if (!id) return ['key_press', 'scroll', 'navigate', 'wait', 'assert'].includes(action.actionType) ? '' : 'coordinates'
  if (id.axRole && id.axName) return `role ${id.axRole} ${quote(id.axName)}`
  if (id.ariaLabel) return `aria-label ${quote(id.ariaLabel)}`
  if (id.name) return `name ${quote(id.name)}`
  if (id.dataTestId) return `test id ${quote(id.dataTestId)}`
  const css = action.selectors?.css
  if (css) return `css ${truncateToColumns(css, 50)}`
  return `similarity to <${id.tagName}>`
}

/** One line of the live list of a recording by hand: `  3. Click button "Save"   [role button "Save"]`. */
export function stepLine(index: number, action: Action, replaced = false): string {
  const label = strategyLabel(action)
  const number = String(index + 1).padStart(3)
  return `${number}. ${action.description}${label ? `   [${label}]` : ''}${replaced ? ' (replaces the click before)' : ''}${action.warning ? `\n     warning: ${action.warning}` : ''}`
}
