import type { ServerResponse } from 'node:http'
import { type StubReply, type StubServer, startStub } from './http-stub'

export type { StubReply } from './http-stub'

/** A Converse request as the stub received it (decoded from the wire). */
export interface ConverseStubRequest {
  modelId: string
  /** The JSON body as sent by the SDK. */
  body: {
    messages?: { role: string; content: Record<string, unknown>[] }[]
    system?: { text?: string }[]
    inferenceConfig?: { maxTokens?: number; temperature?: number }
  }
  /** Images of the first user message, decoded. */
  images: { format: string; bytes: Uint8Array }[]
  /** Text blocks of the first user message, joined. */
  prompt: string
  system: string
  /** performance.now() when it arrived. */
  receivedAtMs: number
}

export type BedrockStub = StubServer<ConverseStubRequest> & {
  /** The endpoint to give the SDK (`endpoint` option or AWS_ENDPOINT_URL_BEDROCK_RUNTIME). */
  readonly endpoint: string
}

const ERRORS: Record<Extract<StubReply, { error: string }>['error'], [number, string]> = {
  throttle: [429, 'ThrottlingException'],
  internal: [500, 'InternalServerException'],
  unavailable: [503, 'ServiceUnavailableException'],
  validation: [400, 'ValidationException'],
  'access-denied': [403, 'AccessDeniedException'],
}

function sendConverse(res: ServerResponse, reply: StubReply) {
  if ('error' in reply) {
    const [status, type] = ERRORS[reply.error]
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
        'x-amzn-requestid': 'stub-request',
      })
      .end(JSON.stringify({ message: reply.message ?? `stub ${type}` }))
    return
  }
  if ('status' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body)
    return
  }
  if (!('text' in reply)) return
  const inputTokens = reply.inputTokens ?? 1000
  const outputTokens = reply.outputTokens ?? Math.ceil(reply.text.length / 4)
  res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': 'stub-request' }).end(
    JSON.stringify({
      output: { message: { role: 'assistant', content: [{ text: reply.text }] } },
      stopReason: 'end_turn',
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
      metrics: { latencyMs: reply.delayMs ?? 1 },
    }),
  )
}

function parseConverse(path: string, body: string): ConverseStubRequest {
  const modelId = path.match(/^\/model\/(.+)\/converse$/)?.[1] ?? ''
  const json = JSON.parse(body) as ConverseStubRequest['body']
  const content = json.messages?.[0]?.content ?? []
  const images: ConverseStubRequest['images'] = []
  const texts: string[] = []
  for (const block of content) {
    const image = block.image as { format?: string; source?: { bytes?: string } } | undefined
    if (image?.source?.bytes)
      images.push({ format: image.format ?? '', bytes: new Uint8Array(Buffer.from(image.source.bytes, 'base64')) })
    if (typeof block.text === 'string') texts.push(block.text)
  }
  return {
    modelId,
    body: json,
    images,
    prompt: texts.join('\n'),
    system: (json.system ?? []).map((s) => s.text ?? '').join('\n'),
    receivedAtMs: performance.now(),
  }
}

/**
 * A loopback server speaking the Bedrock Runtime Converse wire protocol (POST /model/{modelId}/converse,
 * JSON in and out, errors with `x-amzn-errortype`). Point the real SDK at `endpoint` with static test
 * credentials. Replies: `{ text }` (model output), `{ error: 'throttle' | 'internal' | … }`, `{ hang: true }`,
 * `{ status, body }` (anything raw).
 */
export function startBedrockStub(
  opts: { default?: StubReply | ((request: ConverseStubRequest) => StubReply | Promise<StubReply>) } = {},
): Promise<BedrockStub> {
  return startStub<ConverseStubRequest>({
    route: (method, path) => method === 'POST' && /^\/model\/.+\/converse$/.test(path),
    parse: parseConverse,
    send: sendConverse,
    default: opts.default ?? { text: '{"screen_state":"stub","elements":[]}' },
  }).then((s) => Object.assign(s, { endpoint: s.url }))
}

/** Static credentials for the stub (never real ones). */
export const STUB_AWS_CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' } as const
