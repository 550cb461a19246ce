export { parseRunRequest } from './parse-run-request'
export { createHttpApp, type HttpAppOptions, hostnameOf, tokenMatches } from './http-app'
export {
  createRunnerServices,
  DEMO_CASES_DIR,
  type RunnerServices,
  type RunnerServicesOptions,
} from './services'
export {
  assertBindAllowed,
  DEFAULT_HOST,
  DEFAULT_PORT,
  isLoopbackHost,
  type RunningServer,
  startServer,
  type StartServerOptions,
} from './start-server'
export {
  createMcpServer,
  MCP_SERVER_NAME,
  MCP_TOOL_NAMES,
  type McpDeps,
  type McpStdioHandle,
  runMcpStdio,
} from './mcp-server'
