import { describe, expect, it } from 'vitest'
import { checkJsonRpcLine, type JsonRpcChecks } from './json-rpc-guard'

/** Checks as the SDK's schemas answer them, for two methods. */
const checks: JsonRpcChecks = {
  isMessage: (v) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { jsonrpc?: unknown }).jsonrpc === '2.0',
  paramsProblem: (r) =>
    r.method === 'tools/call' && typeof (r.params as { name?: unknown } | undefined)?.name !== 'string'
      ? 'params.name: expected string'
      : null,
}

describe('checkJsonRpcLine (qa mcp answers every line)', () => {
  it.each([
    ['not json', null, -32700],
    ['{"foo": 1}', null, -32600],
    ['[]', null, -32600],
    ['{"id": 7, "method": "x"}', 7, -32600],
    ['{"jsonrpc":"2.0","id":"a","method":"tools/call"}', 'a', -32602],
    ['{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":1}}', 3, -32602],
  ])('%s → error %s/%s', (line, id, code) => {
    const v = checkJsonRpcLine(line, checks)
    expect(v.kind).toBe('reply')
    if (v.kind === 'reply') expect(v.reply).toMatchObject({ jsonrpc: '2.0', id, error: { code } })
  })

  it('passes good messages through, notifications unchecked, and skips blank lines', () => {
    expect(
      checkJsonRpcLine('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}\r', checks).kind,
    ).toBe('message')
    expect(checkJsonRpcLine('{"jsonrpc":"2.0","method":"tools/call"}', checks).kind).toBe('message')
    expect(checkJsonRpcLine('   ', checks).kind).toBe('skip')
  })
})
