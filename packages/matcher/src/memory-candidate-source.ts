import type { ElementIdentity } from '@qa/model'
import { MatcherError } from './errors'
import type { CandidateSource, LookupAttribute, VisualHit } from './web/locate'
import type { CandidateElement } from './score-candidate'

export interface MemoryCandidateSourceOptions<H> {
  /** Answer for the visual strategy; absent means the source has no visual search. */
  visual?: (identity: ElementIdentity) => VisualHit<H> | null
}

/** Every lookup the fake received, in order (handy to assert which strategies reached the page). */
export interface MemoryCandidateSource<H = unknown> extends CandidateSource<H> {
  readonly calls: string[]
}

const squash = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim()

function attributeOf(e: CandidateElement, attr: string): string | undefined {
  switch (attr) {
    case 'id':
      return e.id ?? undefined
    case 'name':
      return e.name ?? undefined
    case 'type':
      return e.type ?? undefined
    case 'placeholder':
      return e.placeholder ?? undefined
    case 'aria-label':
      return e.ariaLabel ?? undefined
    case 'data-testid':
    case 'data-test-id':
      return e.dataTestId ?? undefined
    case 'href':
      return e.href ?? undefined
    case 'role':
      return e.axRole ?? undefined
    case 'class':
      return e.classNames?.join(' ')
    default:
      return undefined
  }
}

interface Compound {
  tag?: string
  id?: string
  classes: string[]
  attrs: { name: string; value?: string }[]
}

const COMPOUND = /^([a-zA-Z][\w-]*|\*)?((?:#[\w-]+|\.[\w-]+|\[[\w-]+(?:=(?:"[^"]*"|'[^']*'|[^\]]*))?\])*)$/
const PART = /#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:=("[^"]*"|'[^']*'|[^\]]*))?\]/g

function parseCompound(selector: string): Compound {
  const m = COMPOUND.exec(selector.trim())
  if (!m) {
    throw new MatcherError(
      'MATCHER_BAD_ARGUMENT',
      `memoryCandidateSource cannot evaluate the CSS selector "${selector}".`,
      {
        hint: 'The in-memory fake supports compound selectors only: tag#id.class[attr="value"].',
      },
    )
  }
  const out: Compound = { classes: [], attrs: [] }
  if (m[1] && m[1] !== '*') out.tag = m[1].toLowerCase()
  for (const p of (m[2] ?? '').matchAll(PART)) {
    if (p[1]) out.id = p[1]
    else if (p[2]) out.classes.push(p[2])
    else if (p[3]) out.attrs.push({ name: p[3], value: p[4]?.replace(/^["']|["']$/g, '') })
  }
  return out
}

function matchesCompound(e: CandidateElement, c: Compound): boolean {
  if (c.tag && (e.tagName ?? '').toLowerCase() !== c.tag) return false
  if (c.id !== undefined && e.id !== c.id) return false
  for (const cls of c.classes) if (!e.classNames?.includes(cls)) return false
  for (const a of c.attrs) {
    const v = attributeOf(e, a.name)
    if (v === undefined || (a.value !== undefined && v !== a.value)) return false
  }
  return true
}

/**
 * An in-memory `CandidateSource` over a fixed list of elements, for tests of anything that runs the
 * cascade. Lookups are exact like Playwright's: role + accessible name, attribute values, text
 * (whitespace-normalised), XPath by equality with the element's `xpath`, CSS limited to compound selectors
 * (`button#save.primary[name="q"]`). Hidden elements are returned too (the engine filters them).
 */
export function memoryCandidateSource<H = unknown>(
  elements: readonly CandidateElement<H>[],
  opts: MemoryCandidateSourceOptions<H> = {},
): MemoryCandidateSource<H> {
  const calls: string[] = []
  const source: MemoryCandidateSource<H> = {
    calls,
    async byRole(role, name) {
      calls.push(`role:${role}:${name}`)
      const r = role.toLowerCase()
      const n = squash(name)
      return elements.filter((e) => (e.axRole ?? '').toLowerCase() === r && squash(e.axName) === n)
    },
    async byAttribute(attribute: LookupAttribute, value, tagName) {
      calls.push(`attr:${attribute}:${value}`)
      return elements.filter(
        (e) =>
          attributeOf(e, attribute) === value &&
          (!tagName || (e.tagName ?? '').toLowerCase() === tagName.toLowerCase()),
      )
    },
    async bySelector(selector, kind) {
      calls.push(`${kind}:${selector}`)
      if (kind === 'xpath') return elements.filter((e) => e.xpath === selector)
      const compounds = selector.split(',').map(parseCompound)
      return elements.filter((e) => compounds.some((c) => matchesCompound(e, c)))
    },
    async byText(text) {
      calls.push(`text:${text}`)
      const t = squash(text)
      return elements.filter((e) => squash(e.textContent) === t)
    },
    async listCandidates() {
      calls.push('list')
      return [...elements]
    },
  }
  if (opts.visual) {
    const visual = opts.visual
    source.visual = async (identity) => {
      calls.push('visual')
      return visual(identity)
    }
  }
  return source
}
