import { VisionError, isVisionError } from '../errors'
import { SYSTEM_PROMPT } from '../prompts'
import type { VisionAnswer, VisionProvider, VisionQuestion } from '../types'
import { assertNotAborted, errorFromStatus, prepareForLlm } from './common'

export interface OpenAiOptions {
  /** e.g. `http://127.0.0.1:11434/v1` (Ollama), `http://localhost:8000/v1` (vLLM), `http://localhost:1234/v1` (LM Studio). */
  baseUrl: string
  /** A model that accepts images, e.g. `qwen2.5vl:7b`, `llava`, `gpt-4o-mini`. */
  model: string
  apiKey?: string
  /** Longest image side sent, in pixels (default 1568). */
  maxImageSide?: number
  maxOutputTokens?: number
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch
}

const dataUri = (bytes: Uint8Array, format: string) =>
  `data:image/${format};base64,${Buffer.from(bytes).toString('base64')}`

/** Any OpenAI-compatible `/chat/completions` endpoint with image input (vLLM, Ollama, LM Studio, OpenAI). */
export function openAiProvider(opts: OpenAiOptions): VisionProvider {
  if (!opts?.baseUrl || !opts.model)
    throw new VisionError('VISION_BAD_CONFIG', 'The "openai" provider needs a base URL and a model.', {
      hint: 'Set QA_OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1) and QA_OPENAI_MODEL (e.g. qwen2.5vl:7b).',
      provider: 'openai',
    })
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`
  const maxSide = opts.maxImageSide ?? 1568
  return {
    name: 'openai',
    model: opts.model,
    async ask(question: VisionQuestion, callOpts): Promise<VisionAnswer> {
      assertNotAborted('openai', callOpts?.signal)
      const prepared = await prepareForLlm(question, maxSide)
      const body = {
        model: opts.model,
        temperature: 0,
        max_tokens: question.maxOutputTokens ?? opts.maxOutputTokens ?? 4096,
        messages: [
          { role: 'system', content: question.system ?? SYSTEM_PROMPT },
          {
            role: 'user',
            content: [
              ...prepared.images.map((img) => ({
                type: 'image_url',
                image_url: { url: dataUri(img.bytes, img.format) },
              })),
              { type: 'text', text: prepared.prompt },
            ],
          },
        ],
      }
      const started = performance.now()
      let response: Response
      try {
        response = await (opts.fetch ?? fetch)(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          ...(callOpts?.signal ? { signal: callOpts.signal } : {}),
        })
      } catch (error) {
        assertNotAborted('openai', callOpts?.signal)
        throw isVisionError(error) ? error : errorFromStatus('openai', undefined, undefined, String(error), error)
      }
      const raw = await response.text().catch(() => '')
      if (!response.ok) {
        let type: string | undefined
        try {
          const err = (JSON.parse(raw) as { error?: { type?: string; code?: string; message?: string } }).error
          type = err?.type ?? err?.code
        } catch {
          /* not JSON */
        }
        throw errorFromStatus('openai', response.status, type, raw.slice(0, 300))
      }
      let json: {
        choices?: { message?: { content?: string | { type?: string; text?: string }[] | null } }[]
        usage?: { prompt_tokens?: number; completion_tokens?: number }
      }
      try {
        json = JSON.parse(raw)
      } catch (cause) {
        throw new VisionError('VISION_BAD_ANSWER', 'The "openai" endpoint answered with a body that is not JSON.', {
          hint: 'Check QA_OPENAI_BASE_URL points at an OpenAI-compatible API (it usually ends in /v1).',
          provider: 'openai',
          raw,
          cause,
        })
      }
      const content = json.choices?.[0]?.message?.content
      const text = Array.isArray(content) ? content.map((c) => c.text ?? '').join('') : (content ?? '')
      return {
        provider: 'openai',
        model: opts.model,
        text,
        scales: prepared.scales,
        ...(json.usage?.prompt_tokens !== undefined ? { inputTokens: json.usage.prompt_tokens } : {}),
        ...(json.usage?.completion_tokens !== undefined ? { outputTokens: json.usage.completion_tokens } : {}),
        latencyMs: Math.round(performance.now() - started),
      }
    },
  }
}
