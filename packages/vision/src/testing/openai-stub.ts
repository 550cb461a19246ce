import type { ServerResponse } from 'node:http'
import { type StubReply, type StubServer, startStub } from './http-stub'

/** A chat-completions request as the stub received it. */
export interface ChatStubRequest {
  body: {
    model?: string
    messages?: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[]
    max_tokens?: number
  }
  authorization?: string
  /** Images of the user message, decoded from their data URIs. */
  images: { format: string; bytes: Uint8Array }[]
  prompt: string
  receivedAtMs: number
}

export type OpenAiStub = StubServer<ChatStubRequest> & {
  /** The base URL to configure (`…/v1`). */
  readonly baseUrl: string
}

const ERRORS: Record<Extract<StubReply, { error: string }>['error'], [number, string]> = {
  throttle: [429, 'rate_limit_exceeded'],
  internal: [500, 'server_error'],
  unavailable: [503, 'server_error'],
  validation: [400, 'invalid_request_error'],
  'access-denied': [401, 'invalid_api_key'],
}

function send(res: ServerResponse, reply: StubReply) {
  if ('error' in reply) {
    const [status, type] = ERRORS[reply.error]
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: reply.message ?? `stub ${type}`, type, code: type } }))
    return
  }
  if ('status' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body)
    return
  }
  if (!('text' in reply)) return
  const prompt = reply.inputTokens ?? 1000
  const completion = reply.outputTokens ?? Math.ceil(reply.text.length / 4)
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      id: 'chatcmpl-stub',
      object: 'chat.completion',
      created: 0,
      model: 'stub',
      choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    }),
  )
}

/** A loopback OpenAI-compatible server: POST /v1/chat/completions, same replies as the Bedrock stub. */
export async function startOpenAiStub(
  opts: { default?: StubReply | ((request: ChatStubRequest) => StubReply | Promise<StubReply>) } = {},
): Promise<OpenAiStub> {
  const stub = await startStub<ChatStubRequest>({
    route: (method, path) => {
      return method === 'POST' && path === '/v1/chat/completions'
    },
    parse: (_path, raw, headers) => {
      const body = JSON.parse(raw) as ChatStubRequest['body']
      const user = body.messages?.find((m) => m.role === 'user')
      const parts = typeof user?.content === 'string' ? [{ type: 'text', text: user.content }] : (user?.content ?? [])
      const images: ChatStubRequest['images'] = []
      for (const p of parts) {
        const m = p.image_url?.url.match(/^data:image\/([a-z]+);base64,(.*)$/)
        if (m) images.push({ format: m[1]!, bytes: new Uint8Array(Buffer.from(m[2]!, 'base64')) })
      }
      const prompt = parts
        .map((p) => p.text ?? '')
        .filter(Boolean)
        .join('\n')
      return {
        body,
        images,
        prompt,
        receivedAtMs: performance.now(),
        ...(headers.authorization ? { authorization: headers.authorization } : {}),
      }
    },
    send,
    default: opts.default ?? { text: '{"screen_state":"stub","elements":[]}' },
  })
  return Object.assign(stub, { baseUrl: `${stub.url}/v1` })
}
