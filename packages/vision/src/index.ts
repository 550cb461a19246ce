export type {
  Box,
  FallbackAttempt,
  ImagePart,
  RawImage,
  ScreenTransition,
  UiAnalysis,
  UiElement,
  VisionAnswer,
  VisionImage,
  VisionProvider,
  VisionQuestion,
  VisionTask,
} from './types'
export {
  createUIAnalyzer,
  NO_CHANGE_HASH_DISTANCE,
  type CallOptions,
  type CreateUIAnalyzerOptions,
  type ElementAtResult,
  type UIAnalyzer,
  type VisionCallInfo,
} from './analyzer'
export {
  defaultFallback,
  PROVIDER_NAMES,
  type ProviderName,
  type VisionConfig,
  visionConfigFromQa,
  type VisionSecrets,
} from './config'
export { VisionError, isVisionError, type VisionErrorCode, type VisionErrorOptions } from './errors'
export { extractJson, tryExtractJson } from './extract-json'
export { findElementAtPosition, distanceToElement } from './find-element-at-position'
export {
  labelPlausibility,
  lineNearness,
  pickElementLabel,
  TRUSTED_LABEL_SCORE,
  type LabelCandidate,
  type PickLabelOptions,
} from './element-label'
export { inferIntent, normalizeIntent, type IntentSource } from './infer-intent'
export { averageHash, differenceHash, hammingDistance } from './hashes'
export { imageHash, toImagePart } from './image'
export { withFallback } from './fallback'
export { withRetry, backoffDelayMs, type RetryOptions } from './retry'
export { createResponseCache, withCache, cacheKey, type ResponseCache, type ResponseCacheOptions } from './cache'
export { createUsageCounter, withUsage, type UsageCounter } from './usage'
export {
  parseScreenAnswer,
  parseElementAnswer,
  parseCompareAnswer,
  parseTransitionAnswer,
  screenPrompt,
  elementPrompt,
  comparePrompt,
  transitionPrompt,
  type CompareResult,
  type ElementAnswer,
} from './prompts'
export { bedrockProvider, bedrockError, DEFAULT_BEDROCK_MODEL, type BedrockOptions } from './providers/bedrock'
export { openAiProvider, type OpenAiOptions } from './providers/openai'
export { ocrProvider, findTessdata, type OcrOptions } from './providers/ocr'
export { noneProvider } from './providers/none'
export { fakeProvider, type FakeProvider, type FakeProviderOptions } from './providers/fake'
