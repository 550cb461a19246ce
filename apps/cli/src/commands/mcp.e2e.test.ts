import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bin } from '../__tests__/run-cli'

let client: Client
let transport: StdioClientTransport
let stderr = ''

type ToolAnswer = { content: Array<{ type: string; text: string }>; isError?: boolean }
const call = async (name: string, args: Record<string, unknown> = {}) => {
  const res = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as ToolAnswer
  return { json: JSON.parse(res.content[0]?.text ?? 'null'), isError: res.isError === true }
}

beforeAll(async () => {
  const reports = mkdtempSync(join(tmpdir(), 'qa-mcp-'))
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--demo', '--report-dir', reports],
    env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (d) => {
    stderr += d
  })
  client = new Client({ name: 'qa-e2e', version: '1.0.0' })
  await client.connect(transport)
})

afterAll(async () => {
  await client?.close()
})

describe('qa mcp over stdio (the SDK client)', () => {
  it('lists suites, runs one by name, and reads its results and report', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_report',
      'get_results',
      'list_suites',
      'run_all',
      'run_suite',
    ])

    const list = await call('list_suites')
    const names: string[] = list.json.suites.map((s: { name: string }) => s.name)
    expect(names).toContain('설정: 알림 받기 저장')

    const ran = await call('run_suite', { name: '설정: 알림 받기 저장' })
    expect(ran.isError, JSON.stringify(ran.json) + stderr).toBe(false)
    expect(ran.json.passed).toBe(true)
    expect(ran.json.suites[0].steps).toHaveLength(2)

    const failed = await call('run_suite', { name: '설정: 사라진 저장 버튼 (실패 예시)' })
    expect(failed.json.passed).toBe(false)
    expect(failed.json.suites[0].steps[1].error).toMatch(/Element not found/)

    const results = await call('get_results')
    expect(results.json.summary).toEqual({ total: names.length, pass: 1, fail: 1 })
    const done = results.json.suites.filter((s: { status: string }) => s.status === 'done')
    expect(done.map((s: { name: string }) => s.name).sort()).toEqual([
      '설정: 사라진 저장 버튼 (실패 예시)',
      '설정: 알림 받기 저장',
    ])

    const report = await call('get_report', { name: '설정: 알림 받기 저장' })
    expect(report.isError).toBe(false)
    expect(report.json.content).toContain('설정: 알림 받기 저장')

    const unknown = await call('run_suite', { name: '설정' })
    expect(unknown.isError).toBe(true)
    expect(unknown.json.code).toBe('SERVER_SUITE_NOT_FOUND')
    expect(unknown.json.names).toEqual(names)
  })
})
