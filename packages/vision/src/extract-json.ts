import { VisionError } from './errors'

/**
 * Finds the JSON value in model output: tolerates code fences, prose before and after, trailing commas
 * and output cut off mid-object (closes what was open, dropping the incomplete last item).
 * Objects are preferred over arrays. Throws VisionError `VISION_BAD_ANSWER` (keeping `raw`) when nothing
 * usable is found.
 */
export function extractJson(text: string, opts: { provider?: string } = {}): unknown {
  const found = tryExtractJson(text)
  if (found.ok) return found.value
  throw new VisionError('VISION_BAD_ANSWER', `The vision model answered with no usable JSON (${describe(text)}).`, {
    hint: 'The raw answer is kept in the report; re-run, try another model, or set QA_VISION=ocr.',
    raw: text,
    ...(opts.provider ? { provider: opts.provider } : {}),
  })
}

export function tryExtractJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const found = findJson(text)
  return found.ok ? { ok: true, value: found.value } : { ok: false }
}

function findJson(text: string): Found {
  if (typeof text !== 'string' || text.length === 0) return { ok: false }
  const sources: string[] = []
  for (const fenced of fencedBlocks(text)) sources.push(fenced)
  sources.push(text)
  for (const src of sources) {
    const object = fromSource(src, '{')
    const array = fromSource(src, '[')
    // An array wins only when it holds the object found (a top-level list of objects).
    if (object.ok && array.ok) return array.start < object.start && object.end <= array.end ? array : object
    if (object.ok) return object
    if (array.ok) return array
  }
  return { ok: false }
}

type Found = { ok: true; value: unknown; start: number; end: number } | { ok: false }

function describe(text: string): string {
  if (!text.trim()) return 'an empty answer'
  const head = text.trim().slice(0, 60).replace(/\s+/g, ' ')
  return `it began "${head}${text.trim().length > 60 ? '…' : ''}"`
}

/** The contents of ``` fences, an unterminated last fence running to the end. */
function fencedBlocks(text: string): string[] {
  const out: string[] = []
  const re = /```[a-zA-Z0-9_-]*[^\S\n]*\n?/g
  const marks: { start: number; end: number }[] = []
  for (let m = re.exec(text); m; m = re.exec(text)) marks.push({ start: m.index, end: m.index + m[0].length })
  for (let i = 0; i < marks.length; i += 2) {
    const open = marks[i]!
    const close = marks[i + 1]
    out.push(text.slice(open.end, close ? close.start : text.length))
  }
  return out
}

function fromSource(src: string, opener: string): Found {
  let from = 0
  let tries = 0
  while (tries++ < 64) {
    const start = src.indexOf(opener, from)
    if (start < 0) return { ok: false }
    const value = parseFrom(src, start)
    if (value.ok) return { ...value, start, end: value.end ?? src.length }
    from = start + 1
  }
  return { ok: false }
}

interface Cut {
  index: number
  stack: string
  comma: boolean
}

/** Parses the value starting at `start`, repairing trailing commas and truncation. */
function parseFrom(src: string, start: number): { ok: true; value: unknown; end?: number } | { ok: false } {
  const stack: string[] = []
  const cuts: Cut[] = []
  let inString = false
  let escaped = false
  for (let i = start; i < src.length; i++) {
    const c = src[i]!
    if (inString) {
      if (escaped) escaped = false
      else if (c === '\\') escaped = true
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') inString = true
    else if (c === '{' || c === '[') {
      stack.push(c === '{' ? '}' : ']')
      cuts.push({ index: i + 1, stack: stack.join(''), comma: false })
    } else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return { ok: false }
      if (stack.length === 0) {
        const done = parseLoose(src.slice(start, i + 1))
        return done.ok ? { ...done, end: i + 1 } : done
      }
      cuts.push({ index: i + 1, stack: stack.join(''), comma: true })
    } else if (c === ',') {
      cuts.push({ index: i, stack: stack.join(''), comma: true })
    }
  }
  // Truncated. Cut inside a string: drop the cut item (back to the last complete one), as a partial label
  // is worse than none; else (or when nothing complete is left) close what is open as it is.
  const closeAll = (body: string, open: string) => body + [...open].reverse().join('')
  const whole = () => parseLoose(closeAll(src.slice(start) + (inString ? '"' : ''), stack.join('')))
  if (!inString) {
    const first = whole()
    if (first.ok) return first
  }
  // Cuts at commas first (drop the partial item), then just after an opener (an empty container); an empty
  // top-level container says nothing, so it is never produced.
  const ordered = [
    ...cuts.filter((c) => c.comma).reverse(),
    ...cuts.filter((c) => !c.comma && c.index !== start + 1).reverse(),
  ]
  for (const cut of ordered.slice(0, 200)) {
    const attempt = parseLoose(closeAll(src.slice(start, cut.index), cut.stack))
    if (attempt.ok) return attempt
  }
  return inString ? whole() : { ok: false }
}

function parseLoose(candidate: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(candidate) }
  } catch {
    // fall through to repairs
  }
  const repaired = removeTrailingCommas(candidate)
  try {
    return { ok: true, value: JSON.parse(repaired) }
  } catch {
    return { ok: false }
  }
}

/**
 * Outside strings: drops commas followed (after whitespace) by a closing bracket, and fills a value left
 * empty by truncation (`"key": }`) with null.
 */
export function removeTrailingCommas(text: string): string {
  let out = ''
  let inString = false
  let escaped = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (inString) {
      out += c
      if (escaped) escaped = false
      else if (c === '\\') escaped = true
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') {
      inString = true
      out += c
      continue
    }
    if (c === ',') {
      let j = i + 1
      while (j < text.length && /\s/.test(text[j]!)) j++
      if (j >= text.length || text[j] === '}' || text[j] === ']') continue
    }
    if (c === ':') {
      let j = i + 1
      while (j < text.length && /\s/.test(text[j]!)) j++
      if (j >= text.length || text[j] === '}' || text[j] === ']') {
        out += ':null'
        continue
      }
    }
    out += c
  }
  return out
}
