import { type IncomingMessage, type ServerResponse, createServer } from 'node:http'
import { createServer as createHttp2Server } from 'node:http2'
import { type AddressInfo, type Socket, createServer as createNetServer } from 'node:net'

/** One canned reply of a stub: model text, an error, a hang (never answers) or a raw body. */
export type StubReply =
  | { text: string; inputTokens?: number; outputTokens?: number; delayMs?: number }
  | { error: 'throttle' | 'internal' | 'unavailable' | 'validation' | 'access-denied'; message?: string }
  | { hang: true }
  | { status: number; body: string; headers?: Record<string, string> }

export interface StubServer<R> {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  /** Every request received, in order. */
  readonly requests: R[]
  /** Queues replies for the next requests; when the queue is empty the default reply is used. */
  reply(...replies: StubReply[]): void
  /** The reply used when nothing is queued (a function can look at the request, and may answer later). */
  setDefault(reply: StubReply | ((request: R) => StubReply | Promise<StubReply>)): void
  close(): Promise<void>
}

export async function startStub<R>(opts: {
  route: (method: string, path: string) => boolean
  parse: (path: string, body: string, headers: IncomingMessage['headers']) => R
  send: (res: ServerResponse, reply: StubReply, request: R) => void
  default: StubReply | ((request: R) => StubReply | Promise<StubReply>)
}): Promise<StubServer<R>> {
  const requests: R[] = []
  const queue: StubReply[] = []
  let fallback = opts.default
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/')
      if (!opts.route(req.method ?? 'GET', path)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such route"}')
        return
      }
      let request: R
      try {
        request = opts.parse(path, Buffer.concat(chunks).toString('utf8'), req.headers)
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) }))
        return
      }
      requests.push(request)
      const answer = (reply: StubReply) => {
        if ('hang' in reply) return // never answer; the client must time out
        if ('text' in reply && reply.delayMs) setTimeout(() => opts.send(res, reply, request), reply.delayMs)
        else opts.send(res, reply, request)
      }
      const queued = queue.shift()
      if (queued || typeof fallback !== 'function') answer(queued ?? (fallback as StubReply))
      else
        Promise.resolve(fallback(request)).then(answer, (error: unknown) =>
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: String(error) })),
        )
    })
  }
  // One port, both protocols: the AWS SDK's Bedrock Runtime client speaks HTTP/2 (cleartext, prior
  // knowledge) to http:// endpoints, other clients HTTP/1.1. The first bytes tell which.
  const http1 = createServer(handle)
  const http2 = createHttp2Server(handle as unknown as Parameters<typeof createHttp2Server>[0])
  const sockets = new Set<Socket>()
  const server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.once('readable', () => {
      const head = socket.read(3) as Buffer | null
      if (head) socket.unshift(head)
      if (head?.toString('latin1') === 'PRI') http2.emit('connection', socket)
      else http1.emit('connection', socket)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    setDefault: (reply) => {
      fallback = reply
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        http2.close()
        http1.close()
        server.close(() => resolve())
      }),
  }
}
