/**
 * Bundles each page function of `src/injected/` (real modules that import their helpers) into one self-contained
 * source text, the form Playwright and CDP send to the page, and writes them to
 * `src/injected/page-bundle.generated.ts`. Each function gets only the helpers it uses (esbuild drops the rest),
 * so what an `evaluate` sends is no larger than the hand-copied functions were.
 *
 *   node --import tsx packages/recorder-cdp/scripts/bundle-injected.ts
 *
 * `page-bundle.test.ts` fails when the committed file is stale against the sources.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'

const here = dirname(fileURLToPath(import.meta.url))
const injected = join(here, '..', 'src', 'injected')
export const GENERATED_FILE = join(injected, 'page-bundle.generated.ts')

/** Each page function: the name it has in the generated file, the module and the export it comes from. */
export const PAGE_FUNCTIONS = {
  describeElements: ['describe-elements', 'describeElementsInPage'],
  hitChain: ['hit-chain', 'hitChainInPage'],
  describeHitChain: ['hit-chain', 'describeHitChainInPage'],
  describeAssertChain: ['hit-chain', 'describeAssertChainInPage'],
  operatedControl: ['hit-chain', 'operatedControlInPage'],
  ownClickPoint: ['click-point', 'ownClickPointInPage'],
  coveringPart: ['click-point', 'coveringPartInPage'],
  clickAim: ['click-point', 'clickAimInPage'],
  clickAimOfOne: ['click-point', 'clickAimOfOneInPage'],
  armDirectClick: ['direct-click', 'armDirectClickInPage'],
  disarmDirectClick: ['direct-click', 'disarmDirectClickInPage'],
  installPressGuard: ['direct-click', 'installPressGuardInPage'],
  watchNavigation: ['direct-click', 'watchNavigationInPage'],
  leaving: ['direct-click', 'leavingInPage'],
  waitForDomQuiet: ['waits', 'waitForDomQuietInPage'],
  waitForFiniteAnimations: ['waits', 'waitForFiniteAnimationsInPage'],
  loopingAnimationBoxes: ['looping-animations', 'loopingAnimationBoxesInPage'],
  installInputReporter: ['input-reporter', 'installInputReporterInPage'],
  installRecorderToolbar: ['toolbar-install', 'installRecorderToolbarInPage'],
  showToolbarHighlight: ['toolbar-calls', 'showToolbarHighlightInPage'],
  markToolbarPicked: ['toolbar-calls', 'markToolbarPickedInPage'],
  readToolbarEditor: ['toolbar-calls', 'readToolbarEditorInPage'],
  openToolbarEditor: ['toolbar-calls', 'openToolbarEditorInPage'],
  removeRecorderToolbar: ['toolbar-calls', 'removeRecorderToolbarInPage'],
  setToolbarFrameState: ['toolbar-calls', 'setToolbarFrameStateInPage'],
  signalToolbar: ['toolbar-calls', 'signalToolbarInPage'],
} as const satisfies Record<string, readonly [string, string]>

export type PageFunctionName = keyof typeof PAGE_FUNCTIONS

/** `@qa/model` from its sources (page code uses only its browser-safe constants; the rest is dropped). */
const modelFromSource: Plugin = {
  name: 'qa-model-source',
  setup(b) {
    b.onResolve({ filter: /^@qa\/model$/ }, () => ({ path: join(here, '..', '..', 'model', 'src', 'index.ts') }))
  },
}

/** One page function as a self-contained function expression: its helpers inside, called with the same `this`. */
async function bundleOne(module: string, exported: string): Promise<string> {
  const result = await build({
    stdin: { contents: `export { ${exported} as default } from './${module}'`, resolveDir: injected, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    treeShaking: true,
    legalComments: 'none',
    plugins: [modelFromSource],
  })
  const text = result.outputFiles[0]?.text ?? ''
  const tail = /\nexport\s*\{\s*([\w$]+) as default\s*\};?\s*$/.exec(text)
  if (!tail) throw new Error(`bundle of ${module}.${exported}: no default export at its end`)
  const body = text
    .slice(0, tail.index)
    .split('\n')
    .filter((line) => !/^\/\/ /.test(line))
    .join('\n')
    .trim()
  return `function (...args) {\n${body}\nreturn ${tail[1]}.apply(this, args)\n}`
}

/** The source of every page function, by its name in the generated file. */
export async function bundlePageFunctions(): Promise<Record<PageFunctionName, string>> {
  const out: Partial<Record<PageFunctionName, string>> = {}
  for (const [name, [module, exported]] of Object.entries(PAGE_FUNCTIONS))
    out[name as PageFunctionName] = await bundleOne(module, exported)
  return out as Record<PageFunctionName, string>
}

/** The generated module's text: each source as an array of lines, so that a change reads as a diff of lines. */
export function generatedModule(sources: Record<PageFunctionName, string>): string {
  const entries = Object.entries(sources).map(
    ([name, source]) =>
      `  ${name}: [\n${source
        .split('\n')
        .map((line) => `    ${JSON.stringify(line)},`)
        .join('\n')}\n  ].join('\\n'),`,
  )
  return [
    '// biome-ignore-all lint/suspicious/noTemplateCurlyInString: page source text, its template literals included',
    '// Generated by scripts/bundle-injected.ts from the page code in this folder: do not edit. After changing that',
    '// code, run `pnpm --filter @qa/recorder-cdp bundle:injected` (page-bundle.test.ts checks).',
    '',
    '/** The source of each page function, self-contained: what `evaluate` and `Runtime.callFunctionOn` send. */',
    'export const PAGE_SOURCES = {',
    ...entries,
    '} as const',
    '',
  ].join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(GENERATED_FILE, generatedModule(await bundlePageFunctions()))
  // in the repository's style (biome), so that `biome check` passes on it
  execFileSync(join(here, '..', '..', '..', 'node_modules', '.bin', 'biome'), ['format', '--write', GENERATED_FILE])
  console.log(`wrote ${GENERATED_FILE}`)
}
