import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const modelDir = join(pkgDir, '../model')

/** The folder of an installed dependency, seen from `fromDir` (pnpm layout: real paths, deps as siblings). */
function packageDir(name: string, fromDir: string): string | undefined {
  const req = createRequire(join(fromDir, 'package.json'))
  let entry: string
  try {
    entry = req.resolve(`${name}/package.json`)
  } catch {
    try {
      entry = req.resolve(name)
    } catch {
      return undefined // an optional dependency for another platform
    }
  }
  let dir = dirname(entry)
  while (
    !existsSync(join(dir, 'package.json')) ||
    JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name
  ) {
    dir = dirname(dir)
  }
  return realpathSync(dir)
}

/** Every third-party package @qa/verifier needs at run time, as installed here (dependencies + present optionals). */
function runtimeClosure(): string[] {
  const seen = new Map<string, string>()
  const visit = (dir: string) => {
    const pj = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    for (const name of [...Object.keys(pj.dependencies ?? {}), ...Object.keys(pj.optionalDependencies ?? {})]) {
      if (name.startsWith('@qa/') || seen.has(name)) continue
      const d = packageDir(name, dir)
      if (!d) continue
      seen.set(name, d)
      visit(d)
    }
  }
  visit(pkgDir)
  return [...seen.values()]
}

test('the packed @qa/verifier installs outside the workspace and works (exports, types, dependencies)', () => {
  const work = mkdtempSync(join(tmpdir(), 'qa-verifier-pack-'))
  const tarballs = join(work, 'tarballs')
  mkdirSync(tarballs)
  execFileSync('pnpm', ['build'], { cwd: pkgDir, stdio: 'ignore' })
  execFileSync('pnpm', ['pack', '--pack-destination', tarballs], { cwd: pkgDir, stdio: 'ignore' })
  execFileSync('pnpm', ['pack', '--pack-destination', tarballs], { cwd: modelDir, stdio: 'ignore' })
  // third-party dependencies come from this machine's installed copies (offline), packed as they are
  for (const dir of runtimeClosure()) execFileSync('npm', ['pack', '--silent', dir], { cwd: tarballs, stdio: 'ignore' })
  const app = join(work, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  const tgz = execFileSync('sh', ['-c', `ls ${tarballs}/*.tgz`], { encoding: 'utf8' })
    .trim()
    .split('\n')
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tgz], { cwd: app, stdio: 'pipe' })
  expect(existsSync(join(app, 'node_modules/@qa/verifier/dist/index.d.ts'))).toBe(true)

  writeFileSync(
    join(app, 'main.ts'),
    `import { compareScreenshots, type CompareResult } from '@qa/verifier'
const frame = { width: 4, height: 2, channels: 4 as const, data: new Uint8Array(32).fill(255) }
const other = { ...frame, data: new Uint8Array(32).fill(255).fill(0, 0, 4) }
const r: CompareResult = await compareScreenshots(frame, other)
console.log(JSON.stringify({ diffPixels: r.diffPixels, similarity: r.similarity }))
`,
  )
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: ['main.ts'],
    }),
  )
  const tsc = createRequire(join(pkgDir, 'package.json')).resolve('typescript/bin/tsc')
  execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, stdio: 'pipe' }) // the published types resolve and check
  writeFileSync(
    join(app, 'main.mjs'),
    readFileSync(join(app, 'main.ts'), 'utf8')
      .replace(', type CompareResult', '')
      .replace(': CompareResult', '')
      .replace(' as const', ''),
  )
  const out = execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8' })
  expect(JSON.parse(out)).toEqual({ diffPixels: 1, similarity: 0.875 })
}, 180_000)
