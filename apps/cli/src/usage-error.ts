import { QaError } from '@qa/model'

/** A wrong flag value or combination: exit code 2 with what to do. */
export class UsageError extends QaError<'USAGE'> {
  constructor(message: string, hint?: string) {
    super('USAGE', message, hint ? { hint } : {})
  }
  override get name(): string {
    return 'UsageError'
  }
}

/** `1280x720` → { width, height }. */
export function parseViewport(
  value: string | undefined,
  flag = '--viewport',
): { width: number; height: number } | undefined {
  if (value === undefined) return undefined
  const m = /^(\d{2,5})x(\d{2,5})$/i.exec(value.trim())
  if (!m) throw new UsageError(`${flag}: expected WIDTHxHEIGHT like 1280x720, got "${value}".`)
  return { width: Number(m[1]), height: Number(m[2]) }
}

export function parseRatioFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new UsageError(`${flag}: expected a number from 0 to 1, got "${value}".`, `For example ${flag} 0.95.`)
  }
  return n
}

export function parsePositiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag}: expected a positive integer, got "${value}".`)
  return n
}

/** A URL flag (`--url`, `--base-url`): an http(s) URL with a host, named in the message when it is not. */
export function parseUrlFlag(value: string, flag: string): string
export function parseUrlFlag(value: string | undefined, flag: string): string | undefined
export function parseUrlFlag(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined
  let url: URL | null = null
  try {
    url = new URL(value)
  } catch {
    url = null
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.host) {
    throw new UsageError(
      `${flag}: expected an http(s) URL like http://127.0.0.1:3000/, got "${value}".`,
      `For example ${flag} http://127.0.0.1:3000/`,
    )
  }
  return value
}
