/**
 * The layers of the workspace, lowest first: the one place the architecture rule reads. A package may import
 * (in package.json or in its source) only packages of lower layers; within a layer only where the layer says so.
 * Apps are one layer, so an app importing another app breaks the rule, and so does a package importing an app.
 * A workspace package named in no layer fails the test: place it here first.
 */
export interface Layer {
  /** Shown in the README picture. */
  title: string
  packages: readonly string[]
  /** Packages of this layer may import each other (consumers on top: examples, benchmarks). */
  sameLayerImports?: boolean
}

export const LAYERS: readonly Layer[] = [
  { title: 'model and fixtures', packages: ['@qa/model', '@qa/sample-app'] },
  { title: 'engines', packages: ['@qa/matcher', '@qa/verifier', '@qa/vision'] },
  { title: 'recorders and replayers', packages: ['@qa/recorder-cdp', '@qa/recorder-desktop'] },
  { title: 'runner', packages: ['@qa/runner'] },
  // @qa/playwright replays a case through the runner's replayCase (`@qa/runner/replay-case`: no queue, S3 or server)
  { title: 'integrations', packages: ['@qa/playwright'] },
  { title: 'server (HTTP API, Inspector, MCP)', packages: ['@qa/api'] },
  { title: 'apps', packages: ['@qa/cli', '@qa/server'] },
  {
    title: 'examples and benchmarks',
    packages: ['@qa/wild-corpus', '@qa/example-playwright-embedding', '@qa/example-playwright-test', '@qa/bench'],
    sameLayerImports: true,
  },
]

/**
 * Today's known violations, each with the issue that removes it. The test fails when one of them is gone, so that
 * the list only ever shrinks: empty it as the issue lands.
 */
export const ALLOWLIST: readonly { from: string; to: string; issue: number; why: string }[] = []

/**
 * Files that break a source rule today (`sources.ts`), each with what removes it. The test fails on any other
 * violation, and when a listed one is gone, so that the list only ever shrinks.
 */
export const SOURCE_ALLOWLIST: readonly { rule: string; file: string; why: string }[] = []
