import { builtinModules } from 'node:module'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import ts from 'typescript'

/**
 * The rules that look inside source files (the layer rule in `check.ts` looks at package names): where a relative
 * import may lead, which files may read the environment, which folders may import what, and that no package's
 * files import each other in a circle. Every rule reads `SourceFile`s, so a test can hand it a made-up workspace.
 */
export interface SourceFile {
  /** Path from the repo root, with forward slashes: `packages/matcher/src/locate.ts`. */
  path: string
  /** What the file imports (static, dynamic, `require`, `import type`, `export … from`, `vi.mock`), as written. */
  imports: string[]
  /** 1-based lines that read `process.env`. */
  envReads: number[]
}

export interface SourceViolation {
  rule: 'relative import into another package' | 'import cycle' | 'process.env in a library' | 'folder rule'
  /** The file that breaks the rule (for a cycle: the first file of the circle). */
  file: string
  detail: string
}

const SOURCE = /\.(c|m)?(t|j)sx?$/
const SKIP = new Set(['node_modules', 'dist', 'coverage', '.turbo', 'public', 'vendor', 'generated'])
/** Where the workspace's own code lives; `bench/` and `scripts/` hold consumers, held to the same import rule. */
const ROOTS = ['packages', 'apps', 'examples', 'bench', 'scripts']
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))

/** The repo path a relative specifier written in `from` names, with forward slashes. */
const joinPath = (from: string, specifier: string) =>
  normalize(join(dirname(from), specifier))
    .split('\\')
    .join('/')

/** The source files under `dir`, without dependencies, build output and declaration files. */
export function listSources(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listSources(path))
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') && statSync(path).size < 2_000_000) out.push(path)
  }
  return out
}

/** What one file imports and where it reads `process.env`, from TypeScript's own parse (comments never count). */
export function parseSource(path: string, text: string): SourceFile {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX)
  const imports: string[] = []
  const envReads = new Set<number>()
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) imports.push(node.moduleSpecifier.text)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression
      if (ts.isStringLiteral(expr)) imports.push(expr.text)
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) imports.push(arg.literal.text)
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments
      const callee = node.expression
      const named =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        (ts.isPropertyAccessExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.expression.text === 'vi' &&
          (callee.name.text === 'mock' || callee.name.text === 'doMock'))
      if (named && first && ts.isStringLiteralLike(first)) imports.push(first.text)
    } else if (
      ts.isPropertyAccessExpression(node) &&
      node.name.text === 'env' &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'process'
    ) {
      envReads.add(file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return { path, imports, envReads: [...envReads].sort((a, b) => a - b) }
}

/** Every source file of the workspace's packages, apps, examples, benches and scripts. */
export function readSources(root: string): SourceFile[] {
  const files: SourceFile[] = []
  for (const group of ROOTS) {
    if (!existsSync(join(root, group))) continue
    for (const abs of listSources(join(root, group))) {
      const path = relative(root, abs).split('\\').join('/')
      files.push(parseSource(path, readFileSync(abs, 'utf8')))
    }
  }
  return files
}

/**
 * The unit a file belongs to: a package (`packages/x`, `apps/x`, `examples/x`), a bench (`bench/x`) or a script
 * folder; a file straight under one of the roots is its own unit.
 */
export function homeOf(path: string): string {
  const [group, name] = path.split('/')
  return name !== undefined && ROOTS.includes(group as string) ? `${group}/${name}` : path
}

const isPackageHome = (home: string) => /^(packages|apps|examples)\//.test(home)

/** The workspace file a relative specifier names (with TypeScript's and Node's extension rules), if there is one. */
export function resolveRelative(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const base = joinPath(from, specifier)
  const stem = base.replace(/\.(c|m)?js$/, '')
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    `${stem}.js`,
    `${base}/index.ts`,
    `${base}/index.js`,
  ]
  return candidates.find((c) => known.has(c))
}

/** A relative import that leaves its package (or bench) for another package: import it by its name instead. */
export function findRelativeCrossings(files: readonly SourceFile[]): SourceViolation[] {
  const out: SourceViolation[] = []
  for (const file of files) {
    const home = homeOf(file.path)
    for (const specifier of file.imports) {
      if (!specifier.startsWith('.')) continue
      const target = joinPath(file.path, specifier)
      const targetHome = homeOf(target)
      if (targetHome !== home && isPackageHome(targetHome))
        out.push({
          rule: 'relative import into another package',
          file: file.path,
          detail: `'${specifier}' reaches into ${targetHome}: import the package by its name (a public entry or a published subpath such as /testing)`,
        })
    }
  }
  return out
}

/** Circles of relative imports inside one package (Tarjan's strongly connected components). */
export function findImportCycles(files: readonly SourceFile[]): SourceViolation[] {
  const known = new Set(files.map((f) => f.path))
  const edges = new Map<string, string[]>()
  for (const file of files) {
    const targets = file.imports
      .filter((s) => s.startsWith('.'))
      .map((s) => resolveRelative(file.path, s, known))
      .filter((t): t is string => t !== undefined && homeOf(t) === homeOf(file.path))
    edges.set(file.path, [...new Set(targets)])
  }
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  let counter = 0
  const strongConnect = (v: string): void => {
    index.set(v, counter)
    low.set(v, counter)
    counter++
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        strongConnect(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop() as string
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(component.sort())
    }
  }
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) strongConnect(v)
  return cycles.map((component) => ({
    rule: 'import cycle',
    file: component[0] as string,
    detail: `these files import each other in a circle: ${component.join(' ↔ ')} (move the shared type or helper into a file both import)`,
  }))
}

/** Test files and test helpers of a package: they may read the environment (which tests to run, where Chromium is). */
export const isTestFile = (path: string) =>
  /\.(e2e\.)?test\.[cm]?[tj]sx?$/.test(path) || /\/__tests__\//.test(path) || /\/vitest\.config\.[tj]s$/.test(path)

/** A library reading `process.env`: the app that calls it reads the environment and passes what it needs. */
export function findEnvReads(files: readonly SourceFile[]): SourceViolation[] {
  return files
    .filter((f) => /^packages\/[^/]+\/src\//.test(f.path) && !isTestFile(f.path) && f.envReads.length > 0)
    .map((f) => ({
      rule: 'process.env in a library',
      file: f.path,
      detail: `reads process.env on line ${f.envReads.join(', ')}: take the value as a parameter or option; the app reads the environment`,
    }))
}

/**
 * Folder rules: what code in a folder may import. `injected/` runs in the page (no Node module); a `devtools/`
 * folder is the DevTools recording format, usable on its own (relative files of its folder and `@qa/model` only).
 */
export function findFolderRuleViolations(files: readonly SourceFile[]): SourceViolation[] {
  const out: SourceViolation[] = []
  for (const file of files) {
    if (!/^packages\/[^/]+\/src\//.test(file.path) || isTestFile(file.path)) continue
    const injected = /\/injected\//.test(file.path)
    const devtools = /^packages\/[^/]+\/src\/devtools\//.exec(file.path)
    for (const specifier of file.imports) {
      if (injected && NODE_BUILTINS.has(specifier))
        out.push({
          rule: 'folder rule',
          file: file.path,
          detail: `'${specifier}': code under injected/ runs in the page and may not import a Node module`,
        })
      if (devtools) {
        const inFolder = specifier.startsWith('.') && joinPath(file.path, specifier).startsWith(devtools[0])
        if (!inFolder && specifier !== '@qa/model')
          out.push({
            rule: 'folder rule',
            file: file.path,
            detail: `'${specifier}': code under devtools/ imports only its own folder and @qa/model`,
          })
      }
    }
  }
  return out
}

/** Every rule over the same files. */
export function findSourceViolations(files: readonly SourceFile[]): SourceViolation[] {
  return [
    ...findRelativeCrossings(files),
    ...findImportCycles(files),
    ...findEnvReads(files),
    ...findFolderRuleViolations(files),
  ]
}
