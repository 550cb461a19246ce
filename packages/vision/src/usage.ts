import type { VisionUsage } from '@qa/model'

/** Counts calls, cache hits, tokens and latency per provider, for reports (the @qa/model `VisionUsage`). */
export interface UsageCounter {
  recordCall(provider: string, answer: { inputTokens?: number; outputTokens?: number }, latencyMs: number): void
  recordFailedCall(provider: string, latencyMs: number): void
  recordCacheHit(provider: string): void
  /** One entry per provider that was called or hit in the cache. */
  byProvider(): VisionUsage[]
  /** All providers summed; `provider` names them joined by `+`. */
  total(): VisionUsage
}

export function createUsageCounter(): UsageCounter {
  const rows = new Map<string, Required<Omit<VisionUsage, 'extra'>>>()
  const row = (provider: string) => {
    let r = rows.get(provider)
    if (!r) {
      r = { provider, calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, totalLatencyMs: 0 }
      rows.set(provider, r)
    }
    return r
  }
  return {
    recordCall(provider, answer, latencyMs) {
      const r = row(provider)
      r.calls++
      r.inputTokens = (r.inputTokens ?? 0) + (answer.inputTokens ?? 0)
      r.outputTokens = (r.outputTokens ?? 0) + (answer.outputTokens ?? 0)
      r.totalLatencyMs = (r.totalLatencyMs ?? 0) + latencyMs
    },
    recordFailedCall(provider, latencyMs) {
      const r = row(provider)
      r.calls++
      r.totalLatencyMs = (r.totalLatencyMs ?? 0) + latencyMs
    },
    recordCacheHit(provider) {
      row(provider).cacheHits++
    },
    byProvider: () => [...rows.values()].map((r) => ({ ...r })),
    total() {
      const all = [...rows.values()]
      return {
        provider: all.map((r) => r.provider).join('+') || 'none',
        calls: all.reduce((s, r) => s + r.calls, 0),
        cacheHits: all.reduce((s, r) => s + r.cacheHits, 0),
        inputTokens: all.reduce((s, r) => s + (r.inputTokens ?? 0), 0),
        outputTokens: all.reduce((s, r) => s + (r.outputTokens ?? 0), 0),
        totalLatencyMs: all.reduce((s, r) => s + (r.totalLatencyMs ?? 0), 0),
      }
    },
  }
}

/** Counts every real call a provider makes (and how long it took) into `usage`. */
export function withUsage<P extends { name: string; ask: (...args: never[]) => Promise<unknown> }>(
  provider: P,
  usage: UsageCounter,
): P {
  return {
    ...provider,
    name: provider.name,
    ask: async (...args: Parameters<P['ask']>) => {
      const started = performance.now()
      try {
        const answer = (await provider.ask(...args)) as { inputTokens?: number; outputTokens?: number }
        usage.recordCall(provider.name, answer, performance.now() - started)
        return answer
      } catch (error) {
        usage.recordFailedCall(provider.name, performance.now() - started)
        throw error
      }
    },
  } as P
}
