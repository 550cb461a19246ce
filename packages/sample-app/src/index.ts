export {
  startSampleApp,
  type SampleApp,
  type SampleAppOptions,
  type SampleAppVariant,
  type TruthEvent,
  type TruthEventType,
} from './start-sample-app'
export {
  mutationNames,
  mutations,
  versionPresets,
  isMutationName,
  normalizeMutations,
  parseMutationList,
  serializeMutationList,
  parseVersion,
  versionOf,
  mutationTableRow,
  type LocatorStrategy,
  type MutationInfo,
  type MutationName,
  type SampleAppVersion,
} from './mutations'
export { renderPage, variantLabel, defaultSettings, type RenderPageOptions, type SampleSettings } from './render-page'
export { resolveVariant, variantCookie, type ResolvedVariant } from './resolve-variant'
export { sampleTargets, type SamplePage, type SampleTarget } from './targets'
export { sampleItems, formatPriceWon, type SampleItem } from './items'
export { SampleAppError, type SampleAppErrorCode } from './errors'
