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
import { ALLOWLIST, LAYERS } from './layers'

const root = fileURLToPath(new URL('../../', import.meta.url))
const workspace = readWorkspace(root)
const allowed = (v: { from: string; to: string }) => ALLOWLIST.some((a) => a.from === v.from && a.to === v.to)

describe('the architecture rule (issue 17 item 8)', () => {
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
    for (const p of workspace.filter((p) => !p.name.startsWith('@qa/example-') && p.name !== '@qa/wild-corpus'))
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
    const internal = /seed [0-9]{3}|issue [0-9]+|SPEC §/i
    const found = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (internal.test(line) ? [`${f.slice(root.length)}:${i + 1}: ${line.trim()}`] : [])),
    )
    expect(files.length).toBeGreaterThan(100)
    expect(found).toEqual([])
  })
})
