export * from './types'
export { QaError, isQaError, ModelError, formatIssue, type ModelErrorCode, type ValidationIssue } from './errors'
export { describeKind, type Field, k, type Kind, type ObjectSchema, opt, req, schema } from './schema'
export * as schemas from './schemas'
export { validateAgainst } from './codecs'
export {
  type Codec,
  type ParseOptions,
  createCodec,
  actionCodec,
  assertionCodec,
  elementIdentityCodec,
  healingRecordCodec,
  replayResultCodec,
  verificationResultCodec,
  accuracyStatsCodec,
  replayReportCodec,
  enrichmentResultCodec,
  parseAction,
  serializeAction,
  parseReplayReport,
  serializeReplayReport,
  parseVerificationResult,
  serializeVerificationResult,
  parseReplayResult,
  serializeReplayResult,
  parseEnrichmentResult,
  serializeEnrichmentResult,
  MAX_JSON_DEPTH,
  parseJsonText,
  stringifyDocument,
} from './codecs'
export {
  type ParsedTestCase,
  createTestCase,
  detectFormatVersion,
  migrateTestCaseDocument,
  parseTestCase,
  parseTestCaseJson,
  serializeTestCase,
  stringifyTestCase,
  validateTestCase,
} from './test-case'
export {
  type VerdictCounts,
  computeAccuracyStats,
  countVerdicts,
  determineTestResult,
  exitCodeFor,
  isVerdict,
  successRate,
} from './report-math'
export { hasSemanticInfo, isClickLike, isLegacyAction, isLegacyTestCase } from './legacy'
export { type ActionEnrichment, mergeEnrichment, summarizeEnrichment } from './enrich'
export {
  CONFIG_ENV_VARS,
  type ConfigOverrides,
  type ConfigResult,
  configJsonSchema,
  DEFAULT_CONFIG,
  type JsonSchema,
  type MaskRect,
  type QaConfig,
  type ReportFormatName,
  resolveConfig,
  type VisionProviderName,
} from './config'
export {
  ASSERTION_OPS_BY_KIND,
  type AssertionCheck,
  type AssertionObservation,
  assertionIssues,
  assertionOp,
  assertionPattern,
  checkAssertion,
  describeAssertion,
  describeExpectation,
  hasAssertionTarget,
  normalizeAssertedText,
  TARGETED_ASSERTION_KINDS,
} from './assertion'
export { terminalSafe } from './terminal-safe'
export { CASE_PATH_EXPECTED, isCaseRelativePath } from './case-path'
export {
  type AcceptancePlan,
  type AcceptedFiles,
  applyAcceptance,
  parseStepList,
  planAcceptance,
  type RefusedStep,
  type StepListResult,
} from './accept'
export {
  importOptional,
  installCommand,
  isModuleNotFound,
  missingPartError,
  OPTIONAL_PARTS,
  type OptionalPart,
  type OptionalPartId,
  optionalPart,
} from './optional-parts'
export { elementLabel } from './element-label'
export { ARIA_NAME_FROM_CONTENT_ROLES } from './aria-roles'
