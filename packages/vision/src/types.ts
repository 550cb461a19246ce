import type { ScreenTransition } from '@qa/model'

/** A rectangle in image pixels, top-left origin. */
export interface Box {
  x: number
  y: number
  width: number
  height: number
}

/** One UI element seen on a screen. Same structural shape as `@qa/matcher`'s element: keep them in step. */
export interface UiElement {
  /** button, icon, text_field, image, tab, link, checkbox, text, … */
  type: string
  text?: string
  description?: string
  boundingBox: { x: number; y: number; width: number; height: number }
  center?: { x: number; y: number }
  /** 0–1 */
  confidence?: number
}

/** Everything interactive on one screen. Same structural shape as `@qa/matcher`'s analysis. */
export interface UiAnalysis {
  elements: UiElement[]
  /** lobby, main_menu, settings, loading, … */
  screenState?: string
  width?: number
  height?: number
}

/** A decoded frame: `data` holds `width * height * channels` bytes, row-major. */
export interface RawImage {
  width: number
  height: number
  data: Uint8Array
  channels: 1 | 2 | 3 | 4
}

/** PNG/JPEG bytes, or a raw frame from a screen grabber. */
export type VisionImage = Uint8Array | RawImage

/** An encoded image handed to a provider, with its pixel size. */
export interface ImagePart {
  bytes: Uint8Array
  format: 'png' | 'jpeg'
  width: number
  height: number
}

export type VisionTask = 'screen' | 'element' | 'compare' | 'transition'

/** What the analyzer asks a provider. */
export interface VisionQuestion {
  task: VisionTask
  /** Images at full resolution; LLM providers downscale them and report `scale`. */
  images: ImagePart[]
  prompt: string
  system?: string
  /** For `element`: the point of interest, in pixels of `images[0]`. */
  point?: { x: number; y: number }
  maxOutputTokens?: number
  /**
   * Throws (VISION_BAD_ANSWER) when an answer cannot be used; fallback chains and caches call it so a
   * malformed answer moves on to the next provider and is never cached.
   */
  accept?: (answer: VisionAnswer) => void
}

/** What a provider answered. LLMs give `text`; non-LLM providers give `data` in the same JSON shape. */
export interface VisionAnswer {
  provider: string
  model?: string
  text?: string
  data?: unknown
  /**
   * Per image of the question: the provider looked at a copy this many times smaller, so pixel coordinates
   * in the answer map back as original = answer × scale. Absent means 1.
   */
  scales?: { x: number; y: number }[]
  inputTokens?: number
  outputTokens?: number
  latencyMs?: number
  /** Set by the cache layer when the answer came from the cache. */
  cached?: boolean
  /** Set by `withFallback`: the providers that failed before this one answered. */
  fallbacks?: FallbackAttempt[]
}

export interface FallbackAttempt {
  provider: string
  code: string
  message: string
  raw?: string
}

/** The port every vision backend implements (bedrock, openai, ocr, none, fake). */
export interface VisionProvider {
  readonly name: string
  readonly model?: string
  ask(question: VisionQuestion, opts?: { signal?: AbortSignal }): Promise<VisionAnswer>
  /** Frees workers/clients; safe to call more than once. */
  close?(): Promise<void>
}

export type { ScreenTransition }
