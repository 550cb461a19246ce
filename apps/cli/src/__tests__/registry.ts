import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'

/**
 * A private npm registry on loopback (Verdaccio, pinned in this package's devDependencies) with its storage in a
 * temp folder, set up as a company sets up its private scope: the `@qa/*` packages are published to it and
 * served only from it (`@qa:registry`); every other package comes straight from the registry npm is configured
 * with here, with npm's own retries. (Proxying those through Verdaccio failed on a loaded machine: after a few
 * slow upstream fetches Verdaccio marks its uplink down and answers 404 for every package it has not cached.)
 */
export interface LocalRegistry {
  url: string
  /** The registry every package outside `@qa/*` comes from. */
  upstream: string
  /** An npmrc holding both registries and a token allowed to publish to this one. */
  npmrc: string
  /** What verdaccio printed (warnings and errors: an upstream fetch that failed, say). */
  log(): string
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** The registry npm uses on this machine (`npm config get registry`), read with the user's own settings. */
export function upstreamRegistry(env: NodeJS.ProcessEnv): string {
  const out = execFileSync('npm', ['config', 'get', 'registry'], { env, encoding: 'utf8', cwd: env.HOME })
  const url = out.trim().split('\n').pop() ?? ''
  if (!/^https?:\/\//.test(url)) throw new Error(`npm config get registry answered ${JSON.stringify(out)}`)
  return url
}

export async function startRegistry(dir: string, upstream: string): Promise<LocalRegistry> {
  await mkdir(join(dir, 'storage'), { recursive: true })
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  const config = join(dir, 'verdaccio.yaml')
  await writeFile(
    config,
    [
      `storage: ${JSON.stringify(join(dir, 'storage'))}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
      '    max_users: 10',
      'packages:',
      "  '@qa/*':",
      '    access: $all',
      '    publish: $authenticated',
      'web:',
      '  enable: false',
      'max_body_size: 50mb',
      'log: { type: stdout, format: json, level: warn }',
      '',
    ].join('\n'),
  )
  const require = createRequire(import.meta.url)
  const manifestPath = require.resolve('verdaccio/package.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> }
  const binPath = typeof manifest.bin === 'string' ? manifest.bin : (manifest.bin.verdaccio as string)
  const bin = join(dirname(manifestPath), binPath)
  const child: ChildProcess = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout?.on('data', (d) => {
    log += d
  })
  child.stderr?.on('data', (d) => {
    log += d
  })
  const stop = async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}): ${log}`)
    try {
      const res = await fetch(`${url}-/ping`)
      if (res.ok) break
    } catch {
      /* not listening yet */
    }
    if (i > 300) {
      await stop()
      throw new Error(`verdaccio did not answer on ${url}: ${log}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  // a user that may publish (verdaccio's htpasswd plugin creates it on first login)
  const res = await fetch(`${url}-/user/org.couchdb.user:qa-e2e`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'qa-e2e', password: 'qa-e2e-password' }),
  })
  const body = (await res.json()) as { token?: string }
  if (!body.token) throw new Error(`verdaccio gave no token (${res.status}): ${JSON.stringify(body)}`)
  const npmrc = join(dir, 'npmrc')
  const hostPath = url.replace(/^http:/, '')
  await writeFile(npmrc, `registry=${upstream}\n@qa:registry=${url}\n${hostPath}:_authToken=${body.token}\n`)
  return { url, upstream, npmrc, log: () => log, stop }
}

/** What a person's shell has: system folders and Node's own, nothing of this workspace. */
export function userEnv(registry: LocalRegistry, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    HOME: process.env.HOME,
    PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    npm_config_userconfig: registry.npmrc,
    npm_config_registry: registry.upstream,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  }
  if (process.env.QA_CHROMIUM) env.QA_CHROMIUM = process.env.QA_CHROMIUM
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR
  return env
}

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** `run` without blocking: several installs go on side by side. */
export function runAsync(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Installed size (apparent bytes of every file) and number of packages of a project's node_modules. */
export function installFootprint(project: string): { bytes: number; packages: number } {
  let bytes = 0
  let packages = 0
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isSymbolicLink()) continue
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) bytes += lstatSync(path).size
    }
  }
  const countPackages = (nm: string): void => {
    if (!existsSync(nm)) return
    for (const entry of readdirSync(nm, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue
      const path = join(nm, entry.name)
      if (entry.name.startsWith('@')) {
        for (const inner of readdirSync(path, { withFileTypes: true })) {
          if (!inner.isDirectory()) continue
          packages++
          countPackages(join(path, inner.name, 'node_modules'))
        }
      } else {
        packages++
        countPackages(join(path, 'node_modules'))
      }
    }
  }
  walk(join(project, 'node_modules'))
  countPackages(join(project, 'node_modules'))
  return { bytes, packages }
}

export interface ReadmeExample {
  /** File name → source, from the first line `// <file>` of each fenced block of the README's "Quick start". */
  files: Record<string, string>
  /** The values the README says each `console.log(…) // → value` prints, in order. */
  expectedOutput: string[]
}

/** The example of a README's `## Quick start` section, as a reader would copy it. */
export function readmeExample(readmePath: string): ReadmeExample {
  const text = readFileSync(readmePath, 'utf8')
  const start = text.indexOf('\n## Quick start\n')
  if (start < 0) throw new Error(`${readmePath}: no "## Quick start" section`)
  const next = text.indexOf('\n## ', start + 1)
  const section = text.slice(start, next < 0 ? undefined : next)
  const files: Record<string, string> = {}
  const expectedOutput: string[] = []
  for (const match of section.matchAll(/```(?:ts|js|json)\n([\s\S]*?)```/g)) {
    const source = match[1] as string
    const name = /^\/\/ ([\w./-]+)\n/.exec(source)?.[1]
    if (!name) throw new Error(`${readmePath}: a Quick start block does not start with "// <file name>"`)
    files[name] = source
    for (const line of source.split('\n')) {
      const said = /console\.log\(.*\)\s*\/\/ → (.*)$/.exec(line)
      if (said) expectedOutput.push((said[1] as string).trim())
    }
  }
  if (Object.keys(files).length === 0) throw new Error(`${readmePath}: no code block in "## Quick start"`)
  return { files, expectedOutput }
}
