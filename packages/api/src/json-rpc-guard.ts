/**
 * JSON-RPC 2.0 for `qa mcp` over stdio: every line a client sends gets an answer, even when it is not JSON
 * (-32700), not a JSON-RPC message (-32600) or a request whose params do not fit the method (-32602). The MCP
 * SDK's stdio transport drops such lines, and a client waiting for its answer waits forever.
 */

export const JSON_RPC_PARSE_ERROR = -32700
export const JSON_RPC_INVALID_REQUEST = -32600
export const JSON_RPC_INVALID_PARAMS = -32602

export interface JsonRpcErrorReply {
  jsonrpc: '2.0'
  id: string | number | null
  error: { code: number; message: string }
}

/** What the protocol layer knows: is this a JSON-RPC message, and what is wrong with a request's params. */
export interface JsonRpcChecks {
  isMessage(value: unknown): boolean
  /** A description of what is wrong with `request` for its method, or null (also for methods it does not know). */
  paramsProblem(request: { method: string; params?: unknown }): string | null
}

export type LineVerdict =
  | { kind: 'message'; message: unknown }
  | { kind: 'reply'; reply: JsonRpcErrorReply }
  | { kind: 'skip' }

const reply = (id: string | number | null, code: number, message: string): LineVerdict => ({
  kind: 'reply',
  reply: { jsonrpc: '2.0', id, error: { code, message } },
})

const idOf = (value: unknown): string | number | null => {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null
}

/** Pure: what to do with one line read from the client. */
export function checkJsonRpcLine(line: string, checks: JsonRpcChecks): LineVerdict {
  const text = line.replace(/\r$/, '')
  if (text.trim() === '') return { kind: 'skip' }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return reply(null, JSON_RPC_PARSE_ERROR, `Parse error: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!checks.isMessage(value)) {
    return reply(
      idOf(value),
      JSON_RPC_INVALID_REQUEST,
      'Invalid Request: expected a JSON-RPC 2.0 object ({"jsonrpc": "2.0", "method": …, "id": …}); batches are not supported.',
    )
  }
  const message = value as { id?: unknown; method?: unknown; params?: unknown }
  if (typeof message.method === 'string' && message.id !== undefined) {
    const problem = checks.paramsProblem({ method: message.method, params: message.params })
    if (problem)
      return reply(idOf(message), JSON_RPC_INVALID_PARAMS, `Invalid params for ${message.method}: ${problem}`)
  }
  return { kind: 'message', message: value }
}

/** `params.name: expected string` from zod-like issues. */
export function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? `${i.path.map(String).join('.')}: ` : ''}${i.message}`)
    .join('; ')
}
