import type { VisionUsage } from '@qa/model'
import type { OcrWord, UiAnalysis } from '@qa/matcher'
import { createUIAnalyzer, type UIAnalyzer, type VisionConfig } from '@qa/vision'
import type { VisionReverifier } from '@qa/verifier'
import type { RgbaFrame } from './frame'
import { offlineSecondOpinion } from './offline-second-opinion'
import type { ElementAnalyzer } from './semantic-info'

/** The vision pieces a desktop recorder/replayer uses, built from one @qa/vision config. */
export interface DesktopVision {
  /** Semantic analysis of a whole screen (only with an LLM provider: bedrock, openai). */
  analyze: ((frame: RgbaFrame) => Promise<UiAnalysis>) | null
  /** OCR of a whole screen (offline; with any provider but `none`). */
  ocr: ((frame: RgbaFrame) => Promise<OcrWord[]>) | null
  /** Per-click analysis while recording / enriching (null with `none`: actions stay `pending`). */
  elementAnalyzer: ElementAnalyzer | null
  /**
   * The verifier's second opinion: the LLM provider, or offline (OCR, then the regions' structure) with the
   * `ocr` provider; none with `none`.
   */
  reverifier: VisionReverifier | null
  /** Calls made so far, all analyzers summed. */
  usage(): VisionUsage
  close(): Promise<void>
}

const isLlm = (p: VisionConfig['provider']) => {
  const name = typeof p === 'string' ? p : p.name
  return name !== 'ocr' && name !== 'none'
}

/** Wires @qa/vision for the desktop: the configured provider for semantics, a separate OCR analyzer for text search. */
export function desktopVision(config: VisionConfig): DesktopVision {
  const name = typeof config.provider === 'string' ? config.provider : config.provider.name
  const main = name === 'none' ? null : createUIAnalyzer(config)
  const llm = isLlm(config.provider)
  let ocrAnalyzer: UIAnalyzer | null = null
  const ocrOf = (): UIAnalyzer | null => {
    if (name === 'none') return null
    if (!llm) return main
    ocrAnalyzer ??= createUIAnalyzer({ provider: 'ocr', fallback: [], ...(config.ocr ? { ocr: config.ocr } : {}) })
    return ocrAnalyzer
  }
  return {
    analyze: llm && main ? (frame) => main.analyzeScreen(frame) : null,
    ocr:
      name === 'none'
        ? null
        : async (frame) => {
            const a = ocrOf() as UIAnalyzer
            const r = await a.analyzeScreen(frame)
            return r.elements
              .filter((e) => typeof e.text === 'string' && e.text.trim() !== '')
              .map((e) => ({ text: e.text as string, boundingBox: e.boundingBox, confidence: e.confidence ?? null }))
          },
    elementAnalyzer: main,
    reverifier: llm
      ? main
      : main
        ? offlineSecondOpinion({
            compare: main,
            read: async (png) =>
              (await main.analyzeScreen(png)).elements.map((e) => e.text ?? '').filter((t) => t.trim() !== ''),
          })
        : null,
    usage() {
      const parts = [main, ocrAnalyzer !== main ? ocrAnalyzer : null]
        .filter((x): x is UIAnalyzer => x !== null)
        .map((a) => a.usage())
      return {
        provider: parts.map((p) => p.provider).join('+') || 'none',
        calls: parts.reduce((s, p) => s + p.calls, 0),
        cacheHits: parts.reduce((s, p) => s + p.cacheHits, 0),
        inputTokens: parts.reduce((s, p) => s + (p.inputTokens ?? 0), 0),
        outputTokens: parts.reduce((s, p) => s + (p.outputTokens ?? 0), 0),
        totalLatencyMs: parts.reduce((s, p) => s + (p.totalLatencyMs ?? 0), 0),
      }
    },
    async close() {
      await main?.close()
      if (ocrAnalyzer && ocrAnalyzer !== main) await ocrAnalyzer.close()
    },
  }
}
