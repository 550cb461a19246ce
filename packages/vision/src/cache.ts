import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sha256Hex } from './image'
import type { UsageCounter } from './usage'
import type { VisionAnswer, VisionProvider, VisionQuestion } from './types'

/** Stored answers, keyed by (image content hashes, prompt hash, provider, model). */
export interface ResponseCache {
  get(key: string): Promise<VisionAnswer | undefined>
  set(key: string, answer: VisionAnswer): Promise<void>
}

export interface ResponseCacheOptions {
  /** A folder for answers on disk (e.g. next to the test case) so a re-run makes no calls; memory only when absent. */
  dir?: string
}

const FORMAT = 1

/** An in-memory cache, backed by one JSON file per answer in `dir` when given. Unreadable files count as misses. */
export function createResponseCache(opts: ResponseCacheOptions = {}): ResponseCache {
  const memory = new Map<string, VisionAnswer>()
  const file = (key: string) => join(opts.dir!, `${key}.json`)
  return {
    async get(key) {
      const hit = memory.get(key)
      if (hit) return hit
      if (!opts.dir) return undefined
      try {
        const doc = JSON.parse(await readFile(file(key), 'utf8')) as { format?: number; answer?: VisionAnswer }
        if (doc.format !== FORMAT || typeof doc.answer?.provider !== 'string') return undefined
        memory.set(key, doc.answer)
        return doc.answer
      } catch {
        return undefined
      }
    },
    async set(key, answer) {
      const { cached: _c, fallbacks: _f, latencyMs: _l, ...stored } = answer
      memory.set(key, stored)
      if (!opts.dir) return
      await mkdir(opts.dir, { recursive: true })
      const tmp = `${file(key)}.${process.pid}.${Date.now()}.tmp`
      await writeFile(tmp, `${JSON.stringify({ format: FORMAT, key, answer: stored }, null, 1)}\n`)
      await rename(tmp, file(key))
    },
  }
}

/** The cache key of one question to one provider. */
export function cacheKey(provider: VisionProvider, question: VisionQuestion): string {
  const promptHash = sha256Hex(
    JSON.stringify([
      question.task,
      question.system ?? '',
      question.prompt,
      question.point ?? null,
      question.maxOutputTokens ?? 0,
    ]),
  )
  const images = question.images.map((img) => sha256Hex(img.bytes))
  return sha256Hex(JSON.stringify({ provider: provider.name, model: provider.model ?? '', promptHash, images })).slice(
    0,
    40,
  )
}

/**
 * Answers from the cache when it can (counting a hit), else asks the provider and stores the answer if
 * `question.accept` takes it. Failed or malformed answers are never stored.
 */
export function withCache(provider: VisionProvider, cache: ResponseCache, usage?: UsageCounter): VisionProvider {
  return {
    name: provider.name,
    ...(provider.model ? { model: provider.model } : {}),
    async ask(question, opts) {
      const key = cacheKey(provider, question)
      const hit = await cache.get(key)
      if (hit) {
        usage?.recordCacheHit(provider.name)
        return { ...hit, cached: true }
      }
      const answer = await provider.ask(question, opts)
      question.accept?.(answer)
      await cache.set(key, answer).catch(() => undefined)
      return answer
    },
  }
}
