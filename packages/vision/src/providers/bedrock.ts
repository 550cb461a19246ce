import type { BedrockRuntimeClient, ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime'
import { installCommand } from '@qa/model'
import { VisionError, isVisionError } from '../errors'
import { lazy } from '../internal/lazy'
import { SYSTEM_PROMPT } from '../prompts'
import type { VisionAnswer, VisionProvider, VisionQuestion } from '../types'
import { assertNotAborted, errorFromStatus, prepareForLlm } from './common'

export const DEFAULT_BEDROCK_MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0'

export interface BedrockOptions {
  /** Model or inference-profile id (QA_BEDROCK_MODEL). */
  modelId?: string
  /** AWS region (AWS_REGION); absent: the SDK's own lookup. */
  region?: string
  /** Endpoint URL; absent: the SDK's own (which honours AWS_ENDPOINT_URL_BEDROCK_RUNTIME). */
  endpoint?: string
  /** Static credentials (tests); absent: the standard AWS credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  /** Longest image side sent, in pixels (default 1568, Claude's sweet spot). */
  maxImageSide?: number
  maxOutputTokens?: number
}

type BedrockSdk = typeof import('@aws-sdk/client-bedrock-runtime')

const loadSdk = lazy(async (): Promise<BedrockSdk> => {
  try {
    return await import('@aws-sdk/client-bedrock-runtime')
  } catch (cause) {
    throw new VisionError('VISION_SDK_MISSING', 'The "bedrock" provider needs @aws-sdk/client-bedrock-runtime.', {
      hint: `Install it in your project: ${installCommand('bedrock')}, or set QA_VISION=ocr.`,
      provider: 'bedrock',
      cause,
      retryable: false,
    })
  }
})

/** Maps an AWS SDK error (service exception, network error, missing region/credentials) to a VisionError. */
export function bedrockError(error: unknown): VisionError {
  if (isVisionError(error)) return error
  const e = error as {
    name?: string
    message?: string
    code?: string
    $metadata?: { httpStatusCode?: number }
    $response?: { statusCode?: number }
  }
  const message = e?.message ?? String(error)
  if (/Region is missing/i.test(message))
    return new VisionError('VISION_BAD_CONFIG', 'The "bedrock" provider has no AWS region.', {
      hint: 'Set AWS_REGION (e.g. us-east-1) or bedrock.region.',
      provider: 'bedrock',
      cause: error,
    })
  if (e?.name === 'CredentialsProviderError' || /Could not load credentials/i.test(message))
    return new VisionError('VISION_AUTH', 'The "bedrock" provider found no AWS credentials.', {
      hint: 'Set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, or use QA_VISION=ocr.',
      provider: 'bedrock',
      cause: error,
    })
  const status = e?.$metadata?.httpStatusCode ?? e?.$response?.statusCode
  const type = e?.name && e.name !== 'Error' ? e.name : e?.code
  return errorFromStatus('bedrock', status, type, message.slice(0, 300), error)
}

/** AWS Bedrock Runtime, Converse API, one user message with the images then the prompt. */
export function bedrockProvider(opts: BedrockOptions = {}): VisionProvider {
  const modelId = opts.modelId ?? DEFAULT_BEDROCK_MODEL
  const maxSide = opts.maxImageSide ?? 1568
  let created: BedrockRuntimeClient | undefined
  const client = lazy(async () => {
    const sdk = await loadSdk()
    created = new sdk.BedrockRuntimeClient({
      ...(opts.region ? { region: opts.region } : {}),
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      maxAttempts: 1, // retries are ours (withRetry), with our backoff and reporting
    })
    return { sdk, client: created }
  })
  return {
    name: 'bedrock',
    model: modelId,
    async ask(question: VisionQuestion, callOpts): Promise<VisionAnswer> {
      assertNotAborted('bedrock', callOpts?.signal)
      const { sdk, client: c } = await client()
      const prepared = await prepareForLlm(question, maxSide)
      const command = new sdk.ConverseCommand({
        modelId,
        system: [{ text: question.system ?? SYSTEM_PROMPT }],
        messages: [
          {
            role: 'user',
            content: [
              ...prepared.images.map((img) => ({ image: { format: img.format, source: { bytes: img.bytes } } })),
              { text: prepared.prompt },
            ],
          },
        ],
        inferenceConfig: { maxTokens: question.maxOutputTokens ?? opts.maxOutputTokens ?? 4096, temperature: 0 },
      })
      const started = performance.now()
      let response: ConverseCommandOutput
      try {
        response = await c.send(command, callOpts?.signal ? { abortSignal: callOpts.signal } : {})
      } catch (error) {
        assertNotAborted('bedrock', callOpts?.signal)
        throw bedrockError(error)
      }
      const text = (response.output?.message?.content ?? [])
        .map((block) => ('text' in block && typeof block.text === 'string' ? block.text : ''))
        .join('')
      return {
        provider: 'bedrock',
        model: modelId,
        text,
        scales: prepared.scales,
        ...(response.usage?.inputTokens !== undefined ? { inputTokens: response.usage.inputTokens } : {}),
        ...(response.usage?.outputTokens !== undefined ? { outputTokens: response.usage.outputTokens } : {}),
        latencyMs: response.metrics?.latencyMs ?? Math.round(performance.now() - started),
      }
    },
    async close() {
      created?.destroy()
    },
  }
}
