import { join } from 'node:path'
import { importOptional, isQaError } from '@qa/model'
import { readTextFile } from '@qa/model/node'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import {
  buildTestBotResults,
  type JobRunner,
  latestSuiteStates,
  type RunRecord,
  ServerError,
  type SuiteCatalog,
  type SuiteRun,
} from '@qa/runner'
import { checkJsonRpcLine, describeIssues, type JsonRpcChecks } from './json-rpc-guard'
import { parseRunRequest } from './parse-run-request'
import { createRunnerServices, type RunnerServicesOptions } from './services'

export const MCP_SERVER_NAME = 'qa-runner'
export const MCP_TOOL_NAMES = ['list_suites', 'run_suite', 'run_all', 'get_results', 'get_report'] as const

export interface McpDeps {
  catalog: SuiteCatalog
  runner: JobRunner
  reportDir: string
}

type ToolResult = { content: Array<{ type: 'text'; text: string }>; isError?: boolean }
const ok = (value: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] })
const fail = (error: unknown): ToolResult => {
  const body = isQaError(error)
    ? { ...error.toJSON(), ...((error as ServerError).details ?? {}) }
    : { code: 'SERVER_INTERNAL', message: error instanceof Error ? error.message : String(error) }
  return { content: [{ type: 'text', text: JSON.stringify(body, null, 2) }], isError: true }
}
const guard =
  <A>(fn: (args: A) => Promise<unknown>) =>
  async (args: A): Promise<ToolResult> => {
    try {
      return ok(await fn(args))
    } catch (error) {
      return fail(error)
    }
  }

const suiteResult = (s: SuiteRun, reportDir: string) => ({
  index: s.index,
  name: s.name,
  file: s.file,
  status: s.status,
  passed: s.passed,
  error: s.error,
  steps: s.steps,
  reports: Object.fromEntries(Object.entries(s.reports).map(([k, p]) => [k, join(reportDir, p as string)])),
})

const runResult = (run: RunRecord, reportDir: string) => ({
  runId: run.id,
  status: run.status,
  passed: run.passed,
  summary: {
    total: run.suites.length,
    pass: run.suites.filter((s) => s.passed).length,
    fail: run.suites.filter((s) => s.status === 'done' && !s.passed).length,
  },
  suites: run.suites.map((s) => suiteResult(s, reportDir)),
})

/**
 * An MCP server exposing the runner's verbs (for LLM agents without a browser): list_suites,
 * run_suite, run_all, get_results, get_report.
 */
export async function createMcpServer(deps: McpDeps): Promise<McpServer> {
  const [{ McpServer: Server }, { z }] = await Promise.all([
    importOptional('mcp', '@modelcontextprotocol/sdk', () => import('@modelcontextprotocol/sdk/server/mcp.js')),
    import('zod'),
  ])
  const server = new Server({ name: MCP_SERVER_NAME, version: '0.1.0' })
  const { catalog, runner, reportDir } = deps

  const start = async (body: unknown, wait: boolean) => {
    const snap = await catalog.list()
    const { request, suites } = parseRunRequest(body, snap.suites)
    const queued = runner.enqueue(suites, request)
    const run = wait ? await runner.waitFor(queued.id) : queued
    return runResult(run, reportDir)
  }

  server.registerTool(
    'list_suites',
    {
      title: 'List test suites',
      description:
        'Lists the recorded test cases (suites) the runner can replay: index, exact name, file, platform, steps.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    guard(async () => {
      const snap = await catalog.list()
      return {
        suites: snap.suites.map((s) => ({
          index: s.index,
          name: s.name,
          file: s.file,
          platform: s.platform,
          tags: s.tags,
          steps: s.steps.length,
        })),
        invalid: snap.invalid,
      }
    }),
  )

  server.registerTool(
    'run_suite',
    {
      title: 'Run one suite',
      description:
        'Replays one suite, chosen by exact name or by index, and (by default) waits until it finishes. Returns pass/fail, every step with its error, and the report file paths.',
      inputSchema: {
        name: z.string().min(1).optional().describe('Exact suite name (see list_suites).'),
        index: z.number().int().min(0).optional().describe('Suite index (see list_suites).'),
        wait: z.boolean().optional().describe('Wait for the result (default true).'),
      },
    },
    guard(async (args: { name?: string; index?: number; wait?: boolean }) => {
      const body =
        args.name !== undefined
          ? { name: args.name, ...(args.index !== undefined ? { index: args.index } : {}) }
          : { index: args.index }
      return start(body, args.wait ?? true)
    }),
  )

  server.registerTool(
    'run_all',
    {
      title: 'Run every suite',
      description:
        'Replays every suite and (by default) waits until all finish. Returns the summary and each suite with its steps and errors.',
      inputSchema: { wait: z.boolean().optional().describe('Wait for the results (default true).') },
    },
    guard(async (args: { wait?: boolean }) => start({ all: true }, args.wait ?? true)),
  )

  server.registerTool(
    'get_results',
    {
      title: 'Current results',
      description:
        'The latest result of every suite in the TestBotResults shape: { isRunning, summary, suites[{ name, status, passed, steps[{ action, detail, passed, error }] }] }.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    guard(async () => {
      const snap = await catalog.list()
      return buildTestBotResults(latestSuiteStates(snap.suites, runner.listRuns()), runner.isRunning())
    }),
  )

  server.registerTool(
    'get_report',
    {
      title: 'Read a suite report',
      description:
        'Reads the latest report of a suite (by exact name or index), or of a given run id: "txt" (human summary) or "json" (full replay report with every verdict and healing method).',
      inputSchema: {
        name: z.string().min(1).optional(),
        index: z.number().int().min(0).optional(),
        run_id: z.string().min(1).optional(),
        format: z.enum(['txt', 'json']).optional().describe('Default txt.'),
      },
      annotations: { readOnlyHint: true },
    },
    guard(async (args: { name?: string; index?: number; run_id?: string; format?: 'txt' | 'json' }) => {
      const snap = await catalog.list()
      const body = args.name !== undefined ? { name: args.name } : { index: args.index ?? 0 }
      const [suite] = parseRunRequest(body, snap.suites).suites
      const runs = args.run_id ? [runner.getRun(args.run_id)].filter((r): r is RunRecord => !!r) : runner.listRuns()
      if (args.run_id && runs.length === 0)
        throw new ServerError('SERVER_RUN_NOT_FOUND', `No run has id "${args.run_id}".`)
      const state = suite ? latestSuiteStates([suite], runs)[0] : undefined
      const path = state?.run?.reports[args.format ?? 'txt']
      if (!state?.run || !path) {
        throw new ServerError('SERVER_NOT_FOUND', `Suite "${suite?.name}" has no ${args.format ?? 'txt'} report yet.`, {
          hint: state?.run?.error
            ? `Its last run failed before a report: ${state.run.error}`
            : 'Run it first with run_suite.',
        })
      }
      const text = await readTextFile(join(reportDir, path), 'report')
      return {
        name: suite?.name,
        runId: state.runId,
        file: join(reportDir, path),
        format: args.format ?? 'txt',
        content: args.format === 'json' ? JSON.parse(text) : text,
      }
    }),
  )
  return server
}

export interface McpStdioHandle {
  /** Resolves when the client disconnects (stdin closed). */
  closed: Promise<void>
  close(): Promise<void>
}

/** `qa mcp`: the runner services plus an MCP server over stdin/stdout (logs go to stderr only). */
export async function runMcpStdio(opts: RunnerServicesOptions = {}): Promise<McpStdioHandle> {
  const services = await createRunnerServices(opts)
  const server = await createMcpServer(services)
  const transport = await answeringStdioTransport(process.stdin, process.stdout)
  let resolveClosed: () => void = () => undefined
  const closed = new Promise<void>((r) => {
    resolveClosed = r
  })
  let closing = false
  const close = async () => {
    if (closing) return closed
    closing = true
    await server.close().catch(() => undefined)
    await services.close()
    resolveClosed()
  }
  transport.onclose = () => {
    void close()
  }
  process.stdin.once('end', () => {
    void close()
  })
  await server.connect(transport)
  return { closed, close }
}

type SafeParser = {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }
}

/**
 * A stdio transport like the SDK's, except that no line goes unanswered: unparsable JSON, messages that are
 * not JSON-RPC and requests with params that do not fit their method get their JSON-RPC error (-32700,
 * -32600, -32602) instead of being dropped.
 */
export async function answeringStdioTransport(
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
): Promise<Transport> {
  const types = await importOptional(
    'mcp',
    '@modelcontextprotocol/sdk',
    () => import('@modelcontextprotocol/sdk/types.js'),
  )
  const params: Record<string, SafeParser> = {
    initialize: types.InitializeRequestSchema,
    ping: types.PingRequestSchema,
    'tools/list': types.ListToolsRequestSchema,
    'tools/call': types.CallToolRequestSchema,
  }
  const checks: JsonRpcChecks = {
    isMessage: (value) => types.JSONRPCMessageSchema.safeParse(value).success,
    paramsProblem: (request) => {
      const result = params[request.method]?.safeParse(request)
      return !result || result.success ? null : describeIssues(result.error?.issues ?? [])
    },
  }
  const write = (message: unknown) =>
    new Promise<void>((resolve) => {
      if (stdout.write(`${JSON.stringify(message)}\n`)) resolve()
      else stdout.once('drain', () => resolve())
    })
  let buffer = Buffer.alloc(0)
  const transport: Transport = {
    async start() {
      stdin.on('data', onData)
      stdin.on('error', onError)
    },
    send: (message) => write(message),
    async close() {
      stdin.off('data', onData)
      stdin.off('error', onError)
      if (stdin.listenerCount('data') === 0) stdin.pause()
      buffer = Buffer.alloc(0)
      transport.onclose?.()
    },
  }
  function onError(error: Error) {
    transport.onerror?.(error)
  }
  function onData(chunk: Buffer | string) {
    buffer = Buffer.concat([buffer, typeof chunk === 'string' ? Buffer.from(chunk) : chunk])
    for (let nl = buffer.indexOf(0x0a); nl >= 0; nl = buffer.indexOf(0x0a)) {
      const line = buffer.subarray(0, nl).toString('utf8')
      buffer = buffer.subarray(nl + 1)
      const verdict = checkJsonRpcLine(line, checks)
      if (verdict.kind === 'reply') void write(verdict.reply)
      else if (verdict.kind === 'message') transport.onmessage?.(verdict.message as JSONRPCMessage)
    }
    if (buffer.length > 10 * 1024 * 1024) {
      buffer = Buffer.alloc(0)
      void write({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: a line longer than 10 MB' },
      })
    }
  }
  return transport
}
