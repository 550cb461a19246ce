import type { ScreenTransition, VisionUsage } from '@qa/model'
import { type ResponseCache, createResponseCache, withCache } from './cache'
import { type ProviderName, type VisionConfig, defaultFallback } from './config'
import { VisionError } from './errors'
import { withFallback } from './fallback'
import { findElementAtPosition } from './find-element-at-position'
import { averageHash, hammingDistance } from './hashes'
import { cropAround, toImagePart } from './image'
import { type IntentSource, inferIntent } from './infer-intent'
import {
  type CompareResult,
  type ElementAnswer,
  comparePrompt,
  elementPrompt,
  parseCompareAnswer,
  parseElementAnswer,
  parseScreenAnswer,
  parseTransitionAnswer,
  screenPrompt,
  SYSTEM_PROMPT,
  transitionPrompt,
} from './prompts'
import { bedrockProvider } from './providers/bedrock'
import { noneProvider } from './providers/none'
import { ocrProvider } from './providers/ocr'
import { openAiProvider } from './providers/openai'
import { type RetryOptions, withRetry } from './retry'
import type {
  FallbackAttempt,
  UiAnalysis,
  UiElement,
  VisionAnswer,
  VisionImage,
  VisionProvider,
  VisionQuestion,
  VisionTask,
} from './types'
import { createUsageCounter, withUsage } from './usage'

export interface CallOptions {
  signal?: AbortSignal
}

/** The element under a click, with what the whole screen says around it. */
export interface ElementAtResult {
  element: UiElement | null
  screenState?: string
  nearbyElements?: string[]
  /** The model's own intent for the click, when it gave one (preferred by `inferIntent`). */
  intent?: string
  visualFeatures?: unknown
  relativePosition?: string
}

/** Which provider answered the last call, whether from the cache, and who failed before it. */
export interface VisionCallInfo {
  task: VisionTask
  provider: string
  model?: string
  cached: boolean
  fallbacks: FallbackAttempt[]
  latencyMs: number
}

/** What recorders, replayers, the enricher and the verifier call. */
export interface UIAnalyzer {
  /** The configured chain, e.g. `bedrock>ocr>none`. */
  readonly provider: string
  analyzeScreen(image: VisionImage, opts?: CallOptions): Promise<UiAnalysis>
  analyzeElementAt(image: VisionImage, x: number, y: number, opts?: CallOptions): Promise<ElementAtResult>
  /** The verifier's second opinion. Rejects (VISION_ALL_FAILED) when no configured provider can judge. */
  compareScreens(
    expected: VisionImage,
    actual: VisionImage,
    intent: string,
    opts?: { signal?: AbortSignal },
  ): Promise<{ match: boolean; reason: string; confidence?: number }>
  /** Average-hash distance < 5 → no change, without asking the model. */
  analyzeTransition(before: VisionImage, after: VisionImage, opts?: CallOptions): Promise<ScreenTransition>
  inferIntent(element: IntentSource | UiElement | null | undefined, transition?: ScreenTransition | null): string
  findElementAtPosition(
    uiData: UiAnalysis | readonly UiElement[],
    x: number,
    y: number,
    tolerance?: number,
  ): UiElement | null
  /** Calls, cache hits, tokens and latency, all providers summed. */
  usage(): VisionUsage
  usageByProvider(): VisionUsage[]
  /** The last call's report (provider used, cache, fallbacks). */
  readonly lastCall: VisionCallInfo | undefined
  close(): Promise<void>
}

export interface CreateUIAnalyzerOptions extends VisionConfig {
  /** Called after every analyzer call with who answered (for logs and reports). */
  onCall?: (info: VisionCallInfo) => void
  onRetry?: RetryOptions['onRetry']
  /** A shared cache (else one is made from cacheDir). */
  responseCache?: ResponseCache
  /** Injected for tests. */
  sleep?: RetryOptions['sleep']
  random?: RetryOptions['random']
}

/** Hash distance below which two screens count as the same. */
export const NO_CHANGE_HASH_DISTANCE = 5

function buildProvider(name: ProviderName | VisionProvider, config: VisionConfig): VisionProvider {
  if (typeof name !== 'string') return name
  switch (name) {
    case 'bedrock':
      return bedrockProvider(config.bedrock ?? {})
    case 'openai':
      if (!config.openai)
        throw new VisionError('VISION_BAD_CONFIG', 'The "openai" provider was chosen but has no settings.', {
          hint: 'Set QA_OPENAI_BASE_URL and QA_OPENAI_MODEL, or pass openai: { baseUrl, model }.',
        })
      return openAiProvider(config.openai)
    case 'ocr':
      return ocrProvider(config.ocr ?? {})
    case 'none':
      return noneProvider()
    default:
      throw new VisionError('VISION_BAD_CONFIG', `Unknown vision provider "${String(name)}".`, {
        hint: 'Use one of bedrock, openai, ocr, none.',
      })
  }
}

/** Builds the analyzer: provider chain with timeouts, retries, cache and usage counters. */
export function createUIAnalyzer(config: CreateUIAnalyzerOptions): UIAnalyzer {
  if (!config || config.provider === undefined)
    throw new VisionError('VISION_BAD_CONFIG', 'createUIAnalyzer() needs a provider.', {
      hint: 'Pass { provider: "bedrock" | "openai" | "ocr" | "none" }, or visionConfigFromQa(config.vision) with a config from resolveConfig (@qa/model).',
    })
  const names = [config.provider, ...(config.fallback ?? defaultFallback(config.provider))]
  const usage = createUsageCounter()
  const cache =
    config.cache === false
      ? undefined
      : (config.responseCache ?? createResponseCache(config.cacheDir ? { dir: config.cacheDir } : {}))
  const raw = names.map((n) => buildProvider(n, config))
  const wrapped = raw.map((p) => {
    if (p.name === 'none') return p
    const retried = withRetry(withUsage(p, usage), {
      maxRetries: config.maxRetries ?? 3,
      timeoutMs: config.timeoutMs ?? 30_000,
      baseDelayMs: config.retryBaseDelayMs ?? 500,
      maxDelayMs: config.retryMaxDelayMs ?? 8_000,
      ...(config.sleep ? { sleep: config.sleep } : {}),
      ...(config.random ? { random: config.random } : {}),
      ...(config.onRetry ? { onRetry: config.onRetry } : {}),
    })
    return cache ? withCache(retried, cache, usage) : retried
  })
  const chain = withFallback(...wrapped)
  const radius = config.elementRadiusPx ?? 150
  let lastCall: VisionCallInfo | undefined

  async function ask(question: VisionQuestion, opts?: CallOptions): Promise<VisionAnswer> {
    const started = performance.now()
    const answer = await chain.ask(question, opts)
    lastCall = {
      task: question.task,
      provider: answer.provider,
      ...(answer.model ? { model: answer.model } : {}),
      cached: answer.cached === true,
      fallbacks: answer.fallbacks ?? [],
      latencyMs: Math.round(performance.now() - started),
    }
    config.onCall?.(lastCall)
    return answer
  }

  return {
    provider: chain.name,
    get lastCall() {
      return lastCall
    },

    async analyzeScreen(image, opts) {
      const part = await toImagePart(image)
      const accept = (a: VisionAnswer) => void parseScreenAnswer(a, part)
      const answer = await ask(
        { task: 'screen', images: [part], prompt: screenPrompt(), system: SYSTEM_PROMPT, accept },
        opts,
      )
      return parseScreenAnswer(answer, part)
    },

    async analyzeElementAt(image, x, y, opts) {
      const part = await toImagePart(image)
      if (!Number.isFinite(x) || !Number.isFinite(y) || x < 0 || y < 0 || x >= part.width || y >= part.height)
        throw new VisionError(
          'VISION_BAD_REQUEST',
          `The point (${x}, ${y}) is outside the ${part.width}×${part.height} image.`,
          {
            hint: 'Pass the click position in pixels of the same screenshot.',
          },
        )
      const crop = await cropAround(part, x, y, radius)
      const point = { x: Math.round(x - crop.offset.x), y: Math.round(y - crop.offset.y) }
      const accept = (a: VisionAnswer) => void parseElementAnswer(a, crop.offset)
      const answer = await ask(
        {
          task: 'element',
          images: [crop.part, part],
          prompt: elementPrompt(point),
          system: SYSTEM_PROMPT,
          point,
          accept,
        },
        opts,
      )
      const parsed: ElementAnswer = parseElementAnswer(answer, crop.offset)
      const out: ElementAtResult = { element: parsed.element }
      if (parsed.screenState !== undefined) out.screenState = parsed.screenState
      if (parsed.nearbyElements !== undefined) out.nearbyElements = parsed.nearbyElements
      if (parsed.intent !== undefined) out.intent = parsed.intent
      if (parsed.visualFeatures !== undefined) out.visualFeatures = parsed.visualFeatures
      if (parsed.relativePosition !== undefined) out.relativePosition = parsed.relativePosition
      return out
    },

    async compareScreens(expected, actual, intent, opts) {
      const [a, b] = await Promise.all([toImagePart(expected, 'expected image'), toImagePart(actual, 'actual image')])
      const accept = (x: VisionAnswer) => void parseCompareAnswer(x)
      const answer = await ask(
        {
          task: 'compare',
          images: [a, b],
          prompt: comparePrompt(intent),
          system: SYSTEM_PROMPT,
          accept,
          maxOutputTokens: 512,
        },
        opts,
      )
      const result: CompareResult = parseCompareAnswer(answer)
      return result
    },

    async analyzeTransition(before, after, opts) {
      const [hb, ha] = await Promise.all([averageHash(before), averageHash(after)])
      const distance = hammingDistance(hb, ha)
      if (distance < NO_CHANGE_HASH_DISTANCE)
        return { changed: false, transitionType: 'none', hashDifference: distance, resultState: 'same' }
      const [pb, pa] = await Promise.all([toImagePart(before, 'before image'), toImagePart(after, 'after image')])
      const accept = (x: VisionAnswer) => void parseTransitionAnswer(x)
      try {
        const answer = await ask(
          {
            task: 'transition',
            images: [pb, pa],
            prompt: transitionPrompt(),
            system: SYSTEM_PROMPT,
            accept,
            maxOutputTokens: 512,
          },
          opts,
        )
        const { intent: _intent, ...t } = parseTransitionAnswer(answer)
        return { changed: true, ...t, hashDifference: distance }
      } catch (error) {
        if (opts?.signal?.aborted) throw error
        // No provider could judge: the hashes still say how much changed.
        return {
          changed: true,
          transitionType: distance >= 20 ? 'full_transition' : 'partial_change',
          hashDifference: distance,
        }
      }
    },

    inferIntent: (element, transition) => inferIntent(element, transition),
    findElementAtPosition: (uiData, x, y, tolerance) => findElementAtPosition(uiData, x, y, tolerance),
    usage: () => usage.total(),
    usageByProvider: () => usage.byProvider(),
    async close() {
      await Promise.all(raw.map((p) => p.close?.().catch(() => undefined)))
    },
  }
}
