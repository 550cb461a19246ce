import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { type DecodedScreenshot, decodeScreenshot } from './decode-screenshot'

export interface ScreenshotCacheOptions {
  /** Most decoded screenshots kept (least recently used are dropped). Default 64 (~0.5 GB at full HD). */
  maxEntries?: number
}

/** Decoded expected screenshots by file path, so a replay decodes each expected image once. */
export interface ScreenshotCache {
  /** The decoded screenshot at `path`; decoded on first use, again only when the file's size or mtime changed. */
  get(path: string): Promise<DecodedScreenshot>
  /** Decodes these files ahead of time (e.g. every screenshot_path of a test case before replay starts). */
  preload(paths: readonly string[]): Promise<void>
  delete(path: string): boolean
  clear(): void
  readonly size: number
}

interface Entry {
  value: Promise<DecodedScreenshot>
  mtimeMs: number
  sizeBytes: number
}

function fingerprint(path: string): { mtimeMs: number; sizeBytes: number } {
  try {
    const st = statSync(path)
    return { mtimeMs: st.mtimeMs, sizeBytes: st.size }
  } catch {
    return { mtimeMs: -1, sizeBytes: -1 } // decodeScreenshot reports the missing file
  }
}

export function createScreenshotCache(opts: ScreenshotCacheOptions = {}): ScreenshotCache {
  const maxEntries = Math.max(1, opts.maxEntries ?? 64)
  const entries = new Map<string, Entry>()

  const get = (path: string): Promise<DecodedScreenshot> => {
    const key = resolve(path)
    const fp = fingerprint(key)
    const hit = entries.get(key)
    if (hit && hit.mtimeMs === fp.mtimeMs && hit.sizeBytes === fp.sizeBytes) {
      entries.delete(key)
      entries.set(key, hit) // most recently used last
      return hit.value
    }
    const value = decodeScreenshot(path)
    entries.set(key, { value, ...fp })
    // a failed decode is forgotten; only a successful one may push the least recently used entries out
    value.then(
      () => {
        while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
      },
      () => {
        if (entries.get(key)?.value === value) entries.delete(key)
      },
    )
    return value
  }

  return {
    get,
    async preload(paths) {
      for (const p of paths) await get(p)
    },
    delete: (path) => entries.delete(resolve(path)),
    clear: () => entries.clear(),
    get size() {
      return entries.size
    },
  }
}
