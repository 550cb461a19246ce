import { VisionError, isVisionError } from './errors'
import type { FallbackAttempt, VisionAnswer, VisionProvider, VisionQuestion } from './types'

/**
 * Tries each provider in turn and returns the first usable answer (one that `question.accept` takes),
 * recording on it which providers failed before (`answer.fallbacks`) and which one answered
 * (`answer.provider`). A caller abort stops the chain. When all fail: VISION_ALL_FAILED listing each failure.
 */
export function withFallback(...chain: VisionProvider[]): VisionProvider {
  if (chain.length === 0) throw new VisionError('VISION_BAD_CONFIG', 'withFallback() needs at least one provider.')
  return {
    name: chain.map((p) => p.name).join('>'),
    async ask(question: VisionQuestion, opts?: { signal?: AbortSignal }): Promise<VisionAnswer> {
      const failures: FallbackAttempt[] = []
      let last: unknown
      for (const provider of chain) {
        try {
          const answer = await provider.ask(question, opts)
          question.accept?.(answer)
          return failures.length ? { ...answer, fallbacks: [...failures, ...(answer.fallbacks ?? [])] } : answer
        } catch (error) {
          if (opts?.signal?.aborted || (isVisionError(error) && error.code === 'VISION_ABORTED')) throw error
          last = error
          failures.push(toAttempt(provider.name, error))
        }
      }
      const detail = failures.map((f) => `${f.provider}: ${f.code}`).join(', ')
      throw new VisionError('VISION_ALL_FAILED', `Every vision provider failed (${detail}).`, {
        hint: 'See each failure in the report; check credentials/endpoint, or add "none" to the fallback chain.',
        cause: last,
        ...(failures.some((f) => f.raw !== undefined) ? { raw: failures.find((f) => f.raw !== undefined)?.raw } : {}),
      })
    },
  }
}

export function toAttempt(provider: string, error: unknown): FallbackAttempt {
  if (isVisionError(error)) {
    const e = error as VisionError
    return {
      provider,
      code: e.code,
      message: e.message,
      ...(e.raw !== undefined ? { raw: e.raw } : {}),
    }
  }
  return { provider, code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) }
}
