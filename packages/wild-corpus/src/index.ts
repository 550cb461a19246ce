export { type CorpusKit, type CorpusPage, corpusKits, corpusPages, pagesOf } from './kits'
export { corpusOpenApi } from './openapi'
export {
  askTruth,
  corpusPageScript,
  isMutationOp,
  type MutationOp,
  mutationOps,
  type PageScriptConfig,
} from './page-script'
export {
  type CorpusServer,
  type CorpusServerOptions,
  type CorpusVariant,
  type CorpusVariantOptions,
  startCorpusServer,
} from './start-corpus-server'
export { createTruthLog, inPageOrder, type TruthEvent, type TruthLog } from './truth-log'
export { type CliOutcome, runCli } from './run-cli'
export { type ReleasePair, releaseCdn, releasePairs } from './releases'
