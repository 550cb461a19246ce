/**
 * Installing qa as its users will: every public package is published to a private registry on loopback, then
 * installed by npm into fresh folders outside this workspace (nothing of the workspace on PATH or NODE_PATH),
 * where the CLI runs and each README's Quick start example runs as written.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  installFootprint,
  type Run,
  type LocalRegistry,
  readmeExample,
  run,
  runAsync,
  startRegistry,
  upstreamRegistry,
  userEnv,
} from './__tests__/registry'
import { repoRoot } from './__tests__/run-cli'

/** The budgets the README states (MB = 10^6 bytes of installed files). */
const CLI_MAX_MB = 90
const CLI_MAX_PACKAGES = 150
const VERIFIER_MAX_MB = 25
/** A safety net only: installs through the registry's proxy take minutes on a loaded machine. */
const INSTALL_TIMEOUT_MS = 900_000

let work: string
let registry: LocalRegistry
const npm = join(dirname(process.execPath), 'npm')
const npx = join(dirname(process.execPath), 'npx')
const typescriptBin = join(repoRoot, 'node_modules/typescript/bin/tsc')

async function freshProject(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const dir = join(work, name)
  await mkdir(dir, { recursive: true })
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name, version: '1.0.0', private: true, type: 'module', ...extra }, null, 2)}\n`,
  )
  return dir
}

/** The installs a user would type, started side by side once the packages are published. */
const installs = {
  cli: { name: 'try-qa-cli', args: ['-D', '@qa/cli'] },
  verifier: { name: 'try-qa-verifier', args: ['@qa/verifier'] },
  matcher: { name: 'try-qa-matcher', args: ['@qa/matcher'] },
  playwright: { name: 'try-qa-playwright', args: ['-D', '@qa/playwright', '@playwright/test'] },
}
const installed = new Map<keyof typeof installs, Promise<{ project: string; result: Run }>>()

/**
 * `npm install` in `project`, once more when a package outside `@qa/*` failed to come from the upstream registry
 * (a 404 or a network error past npm's own retries): a hiccup of the machine's network, not of what we ship.
 */
async function installRetryingUpstream(project: string, args: string[]): Promise<Run> {
  const install = () => runAsync(npm, ['install', '--no-fund', '--no-audit', ...args], project, userEnv(registry))
  const first = await install()
  const upstreamMiss =
    /npm error 404 Not Found - GET https?:\/\/[^/\s]+\/(?!@qa)/.test(first.stderr) ||
    /npm error code (ECONNRESET|ETIMEDOUT|EAI_AGAIN|ECONNREFUSED|E5\d\d)/.test(first.stderr)
  if (first.code === 0 || !upstreamMiss) return first
  process.stdout.write(`[registry-install] upstream fetch failed, installing again:\n${first.stderr.slice(-2000)}\n`)
  return install()
}

async function npmInstall(key: keyof typeof installs): Promise<string> {
  const { project, result } = await (installed.get(key) as Promise<{ project: string; result: Run }>)
  const args = installs[key].args.join(' ')
  expect(result.code, `npm install ${args}\n${result.stdout}\n${result.stderr}`).toBe(0)
  expect(result.stderr, `npm install ${args}`).not.toMatch(/EBADENGINE/)
  return project
}

function figures(label: string, project: string): { mb: number; packages: number } {
  const { bytes, packages } = installFootprint(project)
  const mb = Math.round(bytes / 1e5) / 10
  process.stdout.write(`[registry-install] ${label}: ${mb} MB, ${packages} packages\n`)
  return { mb, packages }
}

async function writeExample(project: string, readme: string): Promise<string[]> {
  const example = readmeExample(readme)
  for (const [name, source] of Object.entries(example.files)) {
    await mkdir(dirname(join(project, name)), { recursive: true })
    await writeFile(join(project, name), source)
  }
  return example.expectedOutput
}

/** Type-checks an example under `strict` and runs it with plain Node, as a TypeScript user would. */
async function runTypeScriptExample(project: string, readme: string): Promise<void> {
  const expected = await writeExample(project, readme)
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        outDir: 'out',
        types: ['node'],
        typeRoots: [join(repoRoot, 'node_modules/@types')],
      },
      include: ['example.ts'],
    }),
  )
  // the type checker is the test's tool (this workspace's TypeScript and Node types), not part of the install
  const tsc = run(process.execPath, [typescriptBin, '-p', '.'], project, userEnv(registry))
  expect(
    tsc.code,
    `tsc --strict on the README example of ${relative(repoRoot, readme)}\n${tsc.stdout}${tsc.stderr}`,
  ).toBe(0)
  const node = run(process.execPath, ['out/example.js'], project, userEnv(registry))
  expect(node.code, `${node.stdout}\n${node.stderr}`).toBe(0)
  expect(node.stdout.trim().split('\n')).toEqual(expected)
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'qa-registry-'))
  const upstream = upstreamRegistry({ HOME: process.env.HOME, PATH: process.env.PATH })
  registry = await startRegistry(join(work, 'registry'), upstream)
  const published = run('pnpm', ['-r', 'publish', '--registry', registry.url, '--no-git-checks'], repoRoot, {
    ...process.env,
    npm_config_userconfig: registry.npmrc,
  })
  expect(published.code, `pnpm -r publish\n${published.stdout}\n${published.stderr}`).toBe(0)
  for (const [key, { name, args }] of Object.entries(installs)) {
    installed.set(
      key as keyof typeof installs,
      freshProject(name).then(async (project) => ({
        project,
        result: await installRetryingUpstream(project, args),
      })),
    )
  }
}, 600_000)

afterAll(async () => {
  await registry?.stop()
  if (work) await rm(work, { recursive: true, force: true })
})

describe('installed from a registry into a folder outside the workspace', () => {
  it(
    'npm install -D @qa/cli: qa --version, qa demo and qa validate run, light and on the lowest Node',
    async () => {
      const project = await npmInstall('cli')
      const { mb, packages } = figures('npm install -D @qa/cli', project)
      expect(mb).toBeLessThanOrEqual(CLI_MAX_MB)
      expect(packages).toBeLessThanOrEqual(CLI_MAX_PACKAGES)
      const engines = run(
        process.execPath,
        ['--import', 'tsx', join(repoRoot, 'scripts/check-engines.ts'), project],
        repoRoot,
        process.env,
      )
      expect(engines.code, engines.stderr).toBe(0)

      const env = userEnv(registry)
      const version = run(npx, ['qa', '--version'], project, env)
      const cliVersion = (
        JSON.parse(readFileSync(join(repoRoot, 'apps/cli/package.json'), 'utf8')) as { version: string }
      ).version
      expect(version.code, version.stderr).toBe(0)
      expect(version.stdout.trim()).toBe(cliVersion)

      const demo = run(npx, ['qa', 'demo', '--out-dir', 'qa-demo'], project, env)
      expect(demo.code, `${demo.stdout}\n${demo.stderr}`).toBe(0)
      // the case qa demo recorded: the JSON file at the top of its folder (reports are in reports/)
      const cases = readdirSync(join(project, 'qa-demo')).filter(
        (f) => f.endsWith('.json') && statSync(join(project, 'qa-demo', f)).isFile(),
      )
      expect(
        cases.length,
        `cases written by qa demo: ${readdirSync(join(project, 'qa-demo')).join(', ')}`,
      ).toBeGreaterThan(0)
      const validate = run(npx, ['qa', 'validate', join('qa-demo', cases[0] as string)], project, env)
      expect(validate.code, `${validate.stdout}\n${validate.stderr}`).toBe(0)

      const init = run(npx, ['qa', 'init'], project, env)
      expect(init.code, `${init.stdout}\n${init.stderr}`).toBe(0)
      const config = JSON.parse(readFileSync(join(project, 'qa.config.json'), 'utf8')) as { $schema: string }
      expect(config.$schema).toBe('./node_modules/@qa/model/qa.config.schema.json')
      expect(existsSync(join(project, config.$schema))).toBe(true)
      const doctor = run(npx, ['qa', 'doctor', '--json'], project, env)
      const checks = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; fix?: string }[] }).checks
      expect(checks.find((c) => c.name === 'config')?.status).toBe('ok')
      // the light install has none of the optional parts, and says how to add each
      expect(checks.find((c) => c.name === 'optional: ocr')).toMatchObject({
        status: 'warn',
        fix: expect.stringMatching(/^npm install -D tesseract\.js@/),
      })

      // an optional part added with the command doctor gives, as a user copies it: no engine warning on this Node
      const serverFix = checks.find((c) => c.name === 'optional: server')?.fix ?? ''
      expect(serverFix).toMatch(/^npm install -D fastify@/)
      const addServer = await installRetryingUpstream(project, serverFix.split(' ').slice(2))
      expect(addServer.code, `${serverFix}\n${addServer.stderr}`).toBe(0)
      expect(addServer.stderr, serverFix).not.toMatch(/EBADENGINE/)
      const doctorAfter = run(npx, ['qa', 'doctor', '--json'], project, env)
      const after = (JSON.parse(doctorAfter.stdout) as { checks: { name: string; status: string }[] }).checks
      expect(after.find((c) => c.name === 'optional: server')?.status).toBe('ok')
    },
    INSTALL_TIMEOUT_MS,
  )

  it(
    'npm install @qa/verifier: its README Quick start runs as written',
    async () => {
      const project = await npmInstall('verifier')
      const { mb } = figures('npm install @qa/verifier', project)
      expect(mb).toBeLessThanOrEqual(VERIFIER_MAX_MB)
      await runTypeScriptExample(project, join(repoRoot, 'packages/verifier/README.md'))
    },
    INSTALL_TIMEOUT_MS,
  )

  it(
    'npm install @qa/matcher: its README Quick start type-checks under strict and runs',
    async () => {
      const project = await npmInstall('matcher')
      figures('npm install @qa/matcher', project)
      await runTypeScriptExample(project, join(repoRoot, 'packages/matcher/README.md'))
    },
    INSTALL_TIMEOUT_MS,
  )

  it(
    'npm install -D @qa/playwright @playwright/test: its README Quick start passes under Playwright Test',
    async () => {
      const project = await npmInstall('playwright')
      figures('npm install -D @qa/playwright @playwright/test', project)
      await writeExample(project, join(repoRoot, 'packages/playwright/README.md'))
      const test = run(npx, ['playwright', 'test', '--reporter=line'], project, userEnv(registry))
      expect(test.code, `${test.stdout}\n${test.stderr}`).toBe(0)
      expect(test.stdout).toMatch(/\b1 passed\b/)
    },
    INSTALL_TIMEOUT_MS,
  )
})
