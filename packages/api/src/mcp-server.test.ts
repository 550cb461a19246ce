import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterEach, describe, expect, it } from 'vitest'
import { caseFolder, fakeReplayer, fakeWriter, tempDir } from '@qa/runner/testing'
import { createMcpServer, MCP_TOOL_NAMES } from './mcp-server'
import { createRunner, createSuiteCatalog, memoryRunStore } from '@qa/runner'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  while (closers.length) await closers.pop()?.()
})

async function connect() {
  const dir = caseFolder(['로그인', '검색'])
  const reportDir = tempDir()
  const runner = createRunner({
    replayers: { web: fakeReplayer({ failing: ['검색'] }) },
    reportDir,
    store: memoryRunStore(),
    writeReports: fakeWriter,
  })
  const server = await createMcpServer({ catalog: createSuiteCatalog(dir), runner, reportDir })
  const [a, b] = InMemoryTransport.createLinkedPair()
  const client = new Client({ name: 'test', version: '1.0.0' })
  await Promise.all([server.connect(a), client.connect(b)])
  closers.push(async () => {
    await client.close()
    await server.close()
  })
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const res = (await client.callTool({ name, arguments: args })) as {
      content: Array<{ type: string; text: string }>
      isError?: boolean
    }
    return { json: JSON.parse(res.content[0]?.text ?? 'null'), isError: res.isError === true }
  }
  return { client, call }
}

describe('MCP server', () => {
  it('lists the five tools', async () => {
    const { client } = await connect()
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort())
  })

  it('lists suites, runs one by name and by index, and reads results and reports', async () => {
    const { call } = await connect()
    const list = await call('list_suites')
    expect(list.json.suites.map((s: { name: string }) => s.name)).toEqual(['로그인', '검색'])
    const ran = await call('run_suite', { name: '로그인' })
    expect(ran.isError).toBe(false)
    expect(ran.json).toMatchObject({ status: 'done', passed: true, summary: { total: 1, pass: 1, fail: 0 } })
    const failed = await call('run_suite', { index: 1 })
    expect(failed.json.passed).toBe(false)
    expect(failed.json.suites[0].steps[1].error).toBe('Element not found: button "저장"')
    const results = await call('get_results')
    expect(results.json.summary).toEqual({ total: 2, pass: 1, fail: 1 })
    const report = await call('get_report', { name: '로그인', format: 'json' })
    expect(report.json.content.testCaseName).toBe('로그인')
  })

  it('answers unknown names and missing reports as tool errors with the names', async () => {
    const { call } = await connect()
    const unknown = await call('run_suite', { name: '없는 테스트' })
    expect(unknown.isError).toBe(true)
    expect(unknown.json).toMatchObject({ code: 'SERVER_SUITE_NOT_FOUND', names: ['로그인', '검색'] })
    const none = await call('get_report', { name: '검색' })
    expect(none.isError).toBe(true)
    expect(none.json.code).toBe('SERVER_NOT_FOUND')
  })
})
