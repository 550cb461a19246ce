import type { Action, TestCase } from '@qa/model'
import { truncateToColumns } from './display-width'

/**
 * The secret variables a recorded case needs at replay: the recorder stores a masked text and
 * the variable's name (`secretEnv`), never the value; the summary names the variables so that the replay command
 * the recorder prints works.
 */
export interface NeededSecret {
  /** The environment variable replay types from: `QA_SECRET_PASSWORD`. */
  name: string
  /** The steps that type it, numbered from 1 as a person reads them. */
  steps: number[]
  /** Where it is typed, per distinct field: `textbox "Password"`, or the point for a step without an element. */
  fields: string[]
}

/** Where a typing step types: the field's role and name as recorded, else its tag, else the point. */
function fieldLabel(action: Action): string {
  const id = action.identity
  if (!id) return `the point (${action.x}, ${action.y})`
  const name = id.axName || id.ariaLabel || id.placeholder || id.name || id.id
  const role = id.axRole || id.tagName
  return name ? `${role} "${truncateToColumns(name, 40)}"` : role
}

/** The secrets a case needs, in the order it first types them; each name once. */
export function neededSecrets(actions: readonly Action[]): NeededSecret[] {
  const byName = new Map<string, NeededSecret>()
  for (const [index, action] of actions.entries()) {
    const name = action.secretEnv
    if (!name) continue
    let entry = byName.get(name)
    if (!entry) {
      entry = { name, steps: [], fields: [] }
      byName.set(name, entry)
    }
    entry.steps.push(index + 1)
    const field = fieldLabel(action)
    if (!entry.fields.includes(field)) entry.fields.push(field)
  }
  return [...byName.values()]
}

/** `This case needs 1 secret: QA_SECRET_PASSWORD (typed into textbox "Password").`; null when it needs none. */
export function secretsLine(secrets: readonly NeededSecret[]): string | null {
  if (secrets.length === 0) return null
  const list = secrets.map((s) => `${s.name} (typed into ${s.fields.join(' and ')})`).join(', ')
  return `This case needs ${secrets.length} secret${secrets.length === 1 ? '' : 's'}: ${list}.`
}

/** `QA_SECRET_PASSWORD=… qa replay cases/flow.json`: the replay command with a placeholder for every secret. */
export function replayCommand(caseFile: string, secrets: readonly NeededSecret[]): string {
  const file = /^[\w./\\:@%+,-]+$/.test(caseFile) ? caseFile : `'${caseFile.replace(/'/g, `'\\''`)}'`
  return [...secrets.map((s) => `${s.name}=…`), 'qa replay', file].join(' ')
}

/** The secrets of a case, for its summary (`neededSecrets` of its actions). */
export function caseSecrets(testCase: Pick<TestCase, 'actions'>): NeededSecret[] {
  return neededSecrets(testCase.actions)
}
