import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  architectureMermaid,
  findViolations,
  README_END,
  README_START,
  readWorkspace,
  type WorkspacePackage,
} from './check'
import { ALLOWLIST, LAYERS, SOURCE_ALLOWLIST } from './layers'
import {
  findEnvReads,
  findFolderRuleViolations,
  findImportCycles,
  findRelativeCrossings,
  findSourceViolations,
  parseSource,
  listSources,
  readSources,
} from './sources'

const root = fileURLToPath(new URL('../../', import.meta.url))
const workspace = readWorkspace(root)
const allowed = (v: { from: string; to: string }) => ALLOWLIST.some((a) => a.from === v.from && a.to === v.to)

describe('the architecture rule: each package imports only the layers below it', () => {
  it('reads the real workspace: every package, its package.json and its source imports', () => {
    const names = workspace.map((p) => p.name)
    for (const name of ['@qa/model', '@qa/verifier', '@qa/recorder-cdp', '@qa/cli', '@qa/server'])
      expect(names).toContain(name)
    const cli = workspace.find((p) => p.name === '@qa/cli') as WorkspacePackage
    expect(cli.declared).toContain('@qa/model')
    expect(cli.imported.get('@qa/model')).toMatch(/^src\//)
  })

  it('no package imports an app, no app another app, no lower layer a higher one (besides the allowlist)', () => {
    const violations = findViolations(workspace).filter((v) => !allowed(v))
    expect(violations.map((v) => `${v.where}: ${v.from} → ${v.to}: ${v.rule}`)).toEqual([])
  })

  it('every allowlisted violation still occurs: remove an entry as soon as its issue lands', () => {
    const found = findViolations(workspace)
    for (const entry of ALLOWLIST)
      expect(
        found.some((v) => v.from === entry.from && v.to === entry.to),
        `${entry.from} → ${entry.to} (issue ${entry.issue}) no longer occurs: delete it from ALLOWLIST in scripts/architecture/layers.ts`,
      ).toBe(true)
  })

  it('the README picture is the one generated from the layers (regenerate: pnpm architecture:readme)', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8')
    const block = readme.slice(readme.indexOf(README_START) + README_START.length, readme.indexOf(README_END)).trim()
    expect(block).toBe(architectureMermaid(new Set(workspace.map((p) => p.name))))
    // and the package table names every package that exists
    for (const p of workspace.filter(
      (p) => !p.name.startsWith('@qa/example-') && p.name !== '@qa/wild-corpus' && p.name !== '@qa/bench',
    ))
      expect(readme, `${p.name} is missing from the README's package table`).toContain(`(${p.dir})`)
  })
})

describe('the rule says no', () => {
  const pkg = (name: string, declared: string[], imported: Record<string, string> = {}): WorkspacePackage => ({
    name,
    dir: `packages/${name.slice(4)}`,
    declared,
    imported: new Map(Object.entries(imported)),
  })

  it.each([
    ['a package importing an app', pkg('@qa/model', [], { '@qa/cli': 'src/x.ts' }), '@qa/cli'],
    ['a package declaring an app', pkg('@qa/verifier', ['@qa/server']), '@qa/server'],
    ['an app importing another app', pkg('@qa/server', [], { '@qa/cli': 'src/y.ts' }), '@qa/cli'],
    ['a lower package importing a higher one', pkg('@qa/vision', ['@qa/recorder-desktop']), '@qa/recorder-desktop'],
    ['engines importing one another', pkg('@qa/matcher', [], { '@qa/vision': 'src/z.ts' }), '@qa/vision'],
    ['the runner importing an app', pkg('@qa/runner', ['@qa/server']), '@qa/server'],
  ])('%s', (_name, p, to) => {
    expect(findViolations([p]).map((v) => v.to)).toEqual([to])
  })

  it('an undeclared package, and allows what flows downward', () => {
    expect(findViolations([pkg('@qa/new-thing', [])])[0]?.rule).toMatch(/in no layer/)
    expect(findViolations([pkg('@qa/runner', ['@qa/recorder-desktop', '@qa/verifier', '@qa/model'])])).toEqual([])
    expect(findViolations([pkg('@qa/cli', ['@qa/runner', '@qa/model', '@qa/sample-app'])])).toEqual([])
    expect(findViolations([pkg('@qa/example-playwright-test', ['@qa/wild-corpus', '@qa/playwright'])])).toEqual([])
  })

  it('layers name each package once', () => {
    const all = LAYERS.flatMap((l) => l.packages)
    expect(new Set(all).size).toBe(all.length)
  })
})

describe('sources and READMEs speak to users', () => {
  it('name no design note, issue or spec section by number (they state the rule itself)', () => {
    const files: string[] = []
    for (const group of ['packages', 'apps'])
      for (const name of readdirSync(join(root, group))) {
        const dir = join(root, group, name)
        if (existsSync(join(dir, 'README.md'))) files.push(join(dir, 'README.md'))
        if (!existsSync(join(dir, 'src'))) continue
        for (const f of readdirSync(join(dir, 'src'), { recursive: true }) as string[])
          if (statSync(join(dir, 'src', f)).isFile()) files.push(join(dir, 'src', f))
      }
    // the benches', scripts' and examples' sources too (their READMEs are logs of runs and may name issues)
    for (const group of ['bench', 'scripts', 'examples']) files.push(...listSources(join(root, group)))
    const internal = /seed [0-9]{3}|issue [0-9]+|SPEC \u00a7/i
    const found = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (internal.test(line) ? [`${f.slice(root.length)}:${i + 1}: ${line.trim()}`] : [])),
    )
    expect(files.length).toBeGreaterThan(100)
    expect(found).toEqual([])
  })
})

describe("the README's homes", () => {
  it('name files that exist, one per behaviour', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const table = readme.slice(readme.indexOf('<!-- homes -->'), readme.indexOf('<!-- /homes -->'))
    const homes = [...table.matchAll(/^\| ([^|]+) \| `([^`]+)`/gm)].map((m) => ({ behaviour: m[1], path: m[2] }))
    expect(homes.map((h) => h.behaviour)).toEqual(
      expect.arrayContaining([
        'the web replay loop',
        "a step's verdict",
        'where a desktop click is located',
        'the route that runs a suite',
        'where `qa replay` parses its flags',
      ]),
    )
    for (const { path } of homes) expect(existsSync(join(root, path)), path).toBe(true)
  })
})

describe('the source rules', () => {
  const sources = readSources(root)
  const violations = findSourceViolations(sources)
  const listed = (v: { rule: string; file: string }) =>
    SOURCE_ALLOWLIST.some((a) => a.rule === v.rule && a.file === v.file)

  it('read every source file of the workspace, benches and scripts too', () => {
    const paths = new Set(sources.map((f) => f.path))
    for (const path of ['packages/matcher/src/web/locate.ts', 'apps/cli/src/index.ts', 'bench/wild/run.ts'])
      expect(paths).toContain(path)
  })

  it('no relative import into another package, no import cycle, no process.env in a library, no folder broken (besides the allowlist)', () => {
    expect(violations.filter((v) => !listed(v)).map((v) => `${v.file}: ${v.rule}: ${v.detail}`)).toEqual([])
  })

  it('every allowlisted file still breaks its rule: delete its entry once it does not', () => {
    for (const entry of SOURCE_ALLOWLIST)
      expect(
        violations.some((v) => v.rule === entry.rule && v.file === entry.file),
        `${entry.file} (${entry.rule}) no longer breaks the rule: delete it from SOURCE_ALLOWLIST in scripts/architecture/layers.ts`,
      ).toBe(true)
  })
})

describe('the source rules say no', () => {
  const file = (path: string, text: string) => parseSource(path, text)

  it('to a relative import into another package, from a package, a test or a bench', () => {
    const found = findRelativeCrossings([
      file('packages/api/src/a.test.ts', "import { fakes } from '../../runner/src/__tests__/fakes'"),
      file('bench/wild/run.ts', "const m = await import('../../packages/matcher/dist/index.js')"),
      file('apps/cli/src/x.ts', "export { y } from '../../../packages/model/src/y'"),
      // allowed: inside the package, a root config file, another bench
      file('packages/api/src/b.ts', "import { c } from './c'\nimport type { D } from '../d'"),
      file('packages/api/vitest.config.ts', "import { qaVitestConfig } from '../../vitest.shared'"),
      file('bench/upgrades/run.ts', "import { serve } from '../wild/serve'"),
    ])
    expect(found.map((v) => v.file)).toEqual(['packages/api/src/a.test.ts', 'bench/wild/run.ts', 'apps/cli/src/x.ts'])
  })

  it('to an import cycle, type-only imports included, and not to a chain', () => {
    const found = findImportCycles([
      file('packages/m/src/a.ts', "import type { B } from './b'"),
      file('packages/m/src/b.ts', "import { c } from './c.js'"),
      file('packages/m/src/c.ts', "import { a } from './a'"),
      file('packages/m/src/d.ts', "import { a } from './a'"),
      file('packages/n/src/e.ts', "import { f } from './f'"),
      file('packages/n/src/f.ts', 'export const f = 1'),
    ])
    expect(found).toHaveLength(1)
    expect(found[0]?.detail).toContain('packages/m/src/a.ts ↔ packages/m/src/b.ts ↔ packages/m/src/c.ts')
  })

  it('to process.env in a library, not in a comment, a test or an app', () => {
    const found = findEnvReads([
      file('packages/x/src/lib.ts', '// process.env is read by the app\nexport const d = process.env.DISPLAY'),
      file('packages/x/src/lib2.ts', '/* process.env */ export const e = 1'),
      file('packages/x/src/lib.test.ts', 'const e2e = process.env.QA_TEST_E2E'),
      file('packages/x/src/__tests__/helper.ts', 'const c = process.env.QA_CHROMIUM'),
      file('apps/cli/src/main.ts', 'const c = process.env.QA_CHROMIUM'),
    ])
    expect(found.map((v) => [v.file, v.detail.match(/line (\d+)/)?.[1]])).toEqual([['packages/x/src/lib.ts', '2']])
  })

  it('to an injected/ file importing Node, and to a devtools/ file importing beyond @qa/model', () => {
    const found = findFolderRuleViolations([
      file('packages/r/src/injected/toolbar.ts', "import { readFileSync } from 'node:fs'\nimport { h } from './h'"),
      file('packages/r/src/injected/page.ts', "import path from 'path'"),
      file('packages/r/src/devtools/import.ts', "import { Action } from '@qa/model'\nimport { s } from './selectors'"),
      file(
        'packages/r/src/devtools/export.ts',
        "import { locate } from '@qa/matcher'\nimport { x } from '../replay/x'",
      ),
    ])
    expect(found.map((v) => `${v.file} ${v.detail.split(':')[0]}`)).toEqual([
      "packages/r/src/injected/toolbar.ts 'node",
      "packages/r/src/injected/page.ts 'path'",
      "packages/r/src/devtools/export.ts '@qa/matcher'",
      "packages/r/src/devtools/export.ts '../replay/x'",
    ])
  })
})
