/**
 * A small schema language for the file format. One description per object type drives validation
 * (every issue, with JSON paths), decoding (snake_case file → camelCase model, unknown fields kept in
 * `extra`), encoding (the reverse) and the fast-check arbitraries of `@qa/model/testing`.
 */
import { CASE_PATH_EXPECTED } from './case-path'

export type Kind =
  | { readonly t: 'string'; readonly minLength?: number }
  | { readonly t: 'integer'; readonly min?: number; readonly max?: number }
  | { readonly t: 'number'; readonly min?: number; readonly max?: number }
  | { readonly t: 'boolean' }
  | { readonly t: 'enum'; readonly values: readonly string[] }
  | { readonly t: 'object'; readonly schema: ObjectSchema }
  | { readonly t: 'array'; readonly of: Kind }
  /** An object whose keys are data (not field names): kept as they are. */
  | { readonly t: 'record'; readonly of: Kind }
  /** Any JSON value, kept as it is. */
  | { readonly t: 'json' }
  | { readonly t: 'union'; readonly of: readonly Kind[] }
  /** A file the case refers to (screenshot, crop): a string, relative to the case's folder and inside it. */
  | { readonly t: 'casePath' }

export interface Field {
  /** Name in the file (snake_case). */
  readonly file: string
  /** Name in the model (camelCase). */
  readonly model: string
  readonly kind: Kind
  /** Required fields must be present and not null. Optional fields may be absent, null or a value. */
  readonly required: boolean
}

export interface ObjectSchema {
  readonly name: string
  readonly fields: readonly Field[]
}

export const k = {
  string: (minLength?: number): Kind => (minLength === undefined ? { t: 'string' } : { t: 'string', minLength }),
  integer: (min?: number, max?: number): Kind => ({
    t: 'integer',
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
  }),
  number: (min?: number, max?: number): Kind => ({
    t: 'number',
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
  }),
  boolean: (): Kind => ({ t: 'boolean' }),
  enum: (values: readonly string[]): Kind => ({ t: 'enum', values }),
  object: (schema: ObjectSchema): Kind => ({ t: 'object', schema }),
  array: (of: Kind): Kind => ({ t: 'array', of }),
  record: (of: Kind): Kind => ({ t: 'record', of }),
  json: (): Kind => ({ t: 'json' }),
  union: (...of: Kind[]): Kind => ({ t: 'union', of }),
  casePath: (): Kind => ({ t: 'casePath' }),
}

const camelToSnake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** `req('x', k.integer())` — a required field; the file name is the snake_case of the model name. */
export function req(model: string, kind: Kind, file = camelToSnake(model)): Field {
  return { file, model, kind, required: true }
}

/** `opt('button', k.enum([...]))` — an optional (absent | null | value) field. */
export function opt(model: string, kind: Kind, file = camelToSnake(model)): Field {
  return { file, model, kind, required: false }
}

export function schema(name: string, fields: readonly Field[]): ObjectSchema {
  return { name, fields }
}

/** What a kind expects, in words: `integer`, `one of "left", "right"`, `object (BoundingBox)`. */
export function describeKind(kind: Kind): string {
  switch (kind.t) {
    case 'string':
      return kind.minLength ? 'non-empty string' : 'string'
    case 'integer':
    case 'number': {
      const range =
        kind.min !== undefined && kind.max !== undefined
          ? ` in [${kind.min}, ${kind.max}]`
          : kind.min !== undefined
            ? ` ≥ ${kind.min}`
            : kind.max !== undefined
              ? ` ≤ ${kind.max}`
              : ''
      return `${kind.t === 'integer' ? 'integer' : 'number'}${range}`
    }
    case 'boolean':
      return 'boolean'
    case 'enum':
      return `one of ${kind.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'object':
      return `object (${kind.schema.name})`
    case 'array':
      return `array of ${describeKind(kind.of)}`
    case 'record':
      return `object of ${describeKind(kind.of)}`
    case 'json':
      return 'JSON value'
    case 'union':
      return kind.of.map(describeKind).join(' or ')
    case 'casePath':
      return CASE_PATH_EXPECTED
  }
}
