import { isCaseRelativePath } from './case-path'
import type { ValidationIssue } from './errors'
import { describeKind, type Kind, type ObjectSchema } from './schema'

type Obj = Record<string, unknown>

const isPlainObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A short, safe rendering of a found value for error messages. */
export function renderValue(value: unknown): string {
  if (value === undefined) return 'missing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return `array (${value.length} items)`
  if (typeof value === 'object') return 'object'
  if (typeof value === 'string') {
    const s = value.length > 40 ? `${value.slice(0, 37)}...` : value
    return JSON.stringify(s)
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value)
  return JSON.stringify(value)
}

export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent === '$' ? '' : parent}[${key}]`
  const safe = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key)
  if (parent === '$') return /^[A-Za-z_]/.test(safe) ? safe : `[${safe}]`
  return /^[A-Za-z_]/.test(safe) ? `${parent}.${safe}` : `${parent}[${safe}]`
}

function isJsonValue(v: unknown, depth = 0): boolean {
  if (depth > 64) return false
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true
  if (typeof v === 'number') return Number.isFinite(v)
  if (Array.isArray(v)) return v.every((x) => isJsonValue(x, depth + 1))
  if (isPlainObject(v)) return Object.values(v).every((x) => isJsonValue(x, depth + 1))
  return false
}

/** Validates a file-format value against a kind; pushes every issue found. */
export function validateKind(value: unknown, kind: Kind, path: string, issues: ValidationIssue[]): void {
  const fail = (): void => {
    issues.push({ path, expected: describeKind(kind), got: renderValue(value) })
  }
  switch (kind.t) {
    case 'string':
      if (typeof value !== 'string' || (kind.minLength !== undefined && value.length < kind.minLength)) fail()
      return
    case 'casePath':
      if (typeof value !== 'string' || !isCaseRelativePath(value)) fail()
      return
    case 'integer':
      if (
        typeof value !== 'number' ||
        !Number.isSafeInteger(value) ||
        (kind.min !== undefined && value < kind.min) ||
        (kind.max !== undefined && value > kind.max)
      )
        fail()
      return
    case 'number':
      if (
        typeof value !== 'number' ||
        !Number.isFinite(value) ||
        (kind.min !== undefined && value < kind.min) ||
        (kind.max !== undefined && value > kind.max)
      )
        fail()
      return
    case 'boolean':
      if (typeof value !== 'boolean') fail()
      return
    case 'enum':
      if (typeof value !== 'string' || !kind.values.includes(value)) fail()
      return
    case 'object':
      if (isPlainObject(value)) validateObject(value, kind.schema, path, issues)
      else fail()
      return
    case 'array':
      if (!Array.isArray(value)) {
        fail()
        return
      }
      for (const [i, item] of value.entries()) validateKind(item, kind.of, childPath(path, i), issues)
      return
    case 'record':
      if (!isPlainObject(value)) {
        fail()
        return
      }
      for (const [key, item] of Object.entries(value)) validateKind(item, kind.of, childPath(path, key), issues)
      return
    case 'json':
      if (!isJsonValue(value)) fail()
      return
    case 'union': {
      for (const option of kind.of) {
        const trial: ValidationIssue[] = []
        validateKind(value, option, path, trial)
        if (trial.length === 0) return
      }
      // Report the deepest issues of an option of the same JSON type, else the union as a whole.
      const sameShape = kind.of.find((o) => sameJsonType(value, o))
      if (sameShape) validateKind(value, sameShape, path, issues)
      else fail()
      return
    }
  }
}

function sameJsonType(value: unknown, kind: Kind): boolean {
  switch (kind.t) {
    case 'string':
    case 'enum':
    case 'casePath':
      return typeof value === 'string'
    case 'integer':
    case 'number':
      return typeof value === 'number'
    case 'boolean':
      return typeof value === 'boolean'
    case 'object':
    case 'record':
      return isPlainObject(value)
    case 'array':
      return Array.isArray(value)
    default:
      return false
  }
}

export function validateObject(value: Obj, schema: ObjectSchema, path: string, issues: ValidationIssue[]): void {
  for (const field of schema.fields) {
    const fieldPath = childPath(path, field.file)
    const present = Object.hasOwn(value, field.file)
    const v = present ? value[field.file] : undefined
    if (!present || v === null) {
      if (field.required) issues.push({ path: fieldPath, expected: describeKind(field.kind), got: renderValue(v) })
      continue
    }
    validateKind(v, field.kind, fieldPath, issues)
  }
  // Unknown fields are kept, but must still be JSON.
  const known = new Set(schema.fields.map((f) => f.file))
  for (const [key, v] of Object.entries(value)) {
    if (!known.has(key) && !isJsonValue(v))
      issues.push({ path: childPath(path, key), expected: 'JSON value', got: renderValue(v) })
  }
}

/** File → model. Assumes the value was validated against the same kind. */
export function decodeKind(value: unknown, kind: Kind): unknown {
  switch (kind.t) {
    case 'object':
      return decodeObject(value as Obj, kind.schema)
    case 'array':
      return (value as unknown[]).map((item) => decodeKind(item, kind.of))
    case 'record':
      return Object.fromEntries(Object.entries(value as Obj).map(([key, v]) => [key, decodeKind(v, kind.of)]))
    case 'json':
      return structuredClone(value)
    case 'union': {
      for (const option of kind.of) {
        const trial: ValidationIssue[] = []
        validateKind(value, option, '$', trial)
        if (trial.length === 0) return decodeKind(value, option)
      }
      return structuredClone(value)
    }
    default:
      return value
  }
}

export function decodeObject(value: Obj, schema: ObjectSchema): Obj {
  const out: Obj = {}
  const known = new Set<string>()
  for (const field of schema.fields) {
    known.add(field.file)
    if (!Object.hasOwn(value, field.file)) continue
    const v = value[field.file]
    out[field.model] = v === null ? null : decodeKind(v, field.kind)
  }
  // Object.fromEntries defines own properties, so a key like "__proto__" stays data.
  const extra = Object.entries(value).filter(([key]) => !known.has(key))
  if (extra.length > 0) out.extra = Object.fromEntries(extra.map(([key, v]) => [key, structuredClone(v)]))
  return out
}

/** Model → file. */
export function encodeKind(value: unknown, kind: Kind): unknown {
  switch (kind.t) {
    case 'object':
      return encodeObject(value as Obj, kind.schema)
    case 'array':
      return (value as unknown[]).map((item) => encodeKind(item, kind.of))
    case 'record':
      return Object.fromEntries(Object.entries(value as Obj).map(([key, v]) => [key, encodeKind(v, kind.of)]))
    case 'json':
      return structuredClone(value)
    case 'union': {
      // Model values of union kinds are scalars or JSON in this format; objects are never in unions.
      return structuredClone(value)
    }
    default:
      return value
  }
}

export function encodeObject(value: Obj, schema: ObjectSchema): Obj {
  const out: Obj = {}
  for (const field of schema.fields) {
    if (!Object.hasOwn(value, field.model)) continue
    const v = value[field.model]
    if (v === undefined) continue
    out[field.file] = v === null ? null : encodeKind(v, field.kind)
  }
  const extra = value.extra
  if (!isPlainObject(extra)) return out
  const unknown = Object.entries(extra).filter(([key]) => !Object.hasOwn(out, key))
  return Object.fromEntries([...Object.entries(out), ...unknown.map(([key, v]) => [key, structuredClone(v)])])
}
