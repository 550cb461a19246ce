#!/usr/bin/env node
// qa-sample-app: serve the bundled sample web app for manual use.
// node packages/sample-app/bin/sample-app.js --port 4173 --version v2 [--mutations renamed-ids,decoy-siblings] [--no-login]
import { parseArgs } from 'node:util'

const usage = `Usage: qa-sample-app [--port 4173] [--host 127.0.0.1] [--version v1|v2] [--mutations a,b] [--class-seed n|per-request] [--no-login]

Serves the sample app (login, list, settings, widgets, frame) until Ctrl-C.
Examples:
  qa-sample-app --port 4173
  qa-sample-app --version v2
  qa-sample-app --mutations renamed-ids,decoy-siblings --no-login`

let args
try {
  args = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      version: { type: 'string', default: 'v1' },
      mutations: { type: 'string' },
      'class-seed': { type: 'string', default: '0' },
      'no-login': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values
} catch (error) {
  console.error(`${error.message}\n\n${usage}`)
  process.exit(2)
}
if (args.help) {
  console.log(usage)
  process.exit(0)
}

const { startSampleApp, parseMutationList, parseVersion } = await import('../dist/index.js')
try {
  const port = Number(args.port)
  const seed = args['class-seed'] === 'per-request' ? 'per-request' : Number(args['class-seed'])
  const app = await startSampleApp({
    port,
    host: args.host,
    version: parseVersion(args.version),
    ...(args.mutations === undefined ? {} : { mutations: parseMutationList(args.mutations) }),
    classSeed: seed,
    requireLogin: !args['no-login'],
  })
  const v = app.variant()
  console.log(`sample app (${v.version ?? v.mutations.join(',')}) listening on ${app.url}/login`)
  const stop = () => app.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  if (error && typeof error === 'object' && 'code' in error && 'hint' in error) {
    console.error(`error ${error.code}: ${error.message}${error.hint ? `\n${error.hint}` : ''}`)
    process.exit(2)
  }
  throw error
}
