// @qa/matcher: pure element matching for self-healing replay. Everything exported is named here.
export {
  type AssertChainNode,
  type AssertPickKind,
  type AssertTargetDecision,
  type AssertTargetOptions,
  chooseAssertTarget,
  isMeaningfulNode,
  MEANINGFUL_ROLES,
  MEANINGFUL_TAGS,
} from './assert-target'
export {
  type ClickTargetDecision,
  type ClickTargetKind,
  type ClickTargetOptions,
  chooseClickTarget,
  clickTargetKind,
  DEFAULT_MAX_AREA_GROWTH,
  DOCUMENT_TAGS,
  type HitChainNode,
  INTERACTIVE_ROLES,
  MIN_OVERSIZED_AREA,
  OVERSIZED_ANSWER,
  oversizedObjection,
  recordedTargetObjection,
} from './click-target'
export { MatcherError, type MatcherErrorCode } from './errors'
export { comparisonKey, decomposeHangul, keySimilarity, normalizeText, textSimilarity } from './text/text-similarity'
export {
  DEFAULT_DESKTOP_WEIGHTS,
  type DesktopMatch,
  type DesktopMatchScores,
  type DesktopMatchWeights,
  decideReplayTarget,
  elementCenter,
  type FindMatchingElementOptions,
  findMatchingElement,
  type ReplayTargetDecision,
  typeSimilarity,
  type UiAnalysis,
  type UiElement,
} from './screen/find-matching-element'
export {
  type CandidateElement,
  type CandidateScore,
  DEFAULT_WEIGHTS,
  identityToCandidate,
  type RankedCandidate,
  rankCandidates,
  type ScoredAttribute,
  type ScoreWeights,
  scoreCandidate,
} from './score-candidate'
export {
  type CandidateSource,
  type LocateOptions,
  type LocateResult,
  type LookupAttribute,
  locate,
  SAME_PIXELS_VISUAL_THRESHOLD,
  STRATEGY_BASE_CONFIDENCE,
  type VisualHit,
  WEB_STRATEGIES,
  type WebStrategy,
} from './web/locate'
export { type DescribeAttemptsOptions, describeAttempts } from './describe-attempts'
export { type CountMatchesResult, countMatches } from './count-matches'
export {
  type LocateOnScreenOptions,
  locateOnScreen,
  type OcrWord,
  type ScreenSource,
  type ScreenTarget,
  type WindowPlacement,
} from './screen/locate-on-screen'
export { lookAlikeLevel, settleByPrior } from './screen/template'
export { matchWithSurroundings } from './screen/surroundings'
export { matchAtWindowPlace } from './screen/window-place'
export { scoreResampled } from './image/resample'
export {
  type LabelRead,
  type LabelReadImage,
  labelInkBox,
  labelReadImage,
  labelReadOf,
} from './image/label-read'
export { type LabelAnchor, labelAnchorOf, placeByAnchor } from './screen/anchor-label'
export { structureFrame } from './image/structure-frame'
export { countFieldsInLandmark, fieldKind, landmarkOf, onlyFieldOfItsLandmark } from './web/landmark-field'
export {
  createLabelCheck,
  DEFAULT_MIN_CONTEXT_SCORE,
  DEFAULT_MIN_LABEL_SCORE,
  differInOwnWords,
  groupedByName,
  holderAgreement,
  isGeneratedId,
  type LabelCheck,
  type LabelVerdict,
  labelKeyAgreement,
  labelKeys,
  QUALIFIED_LABEL_AGREEMENT,
  roleKind,
  SAME_LABEL_AGREEMENT,
  sameCandidate,
  sameRoleKind,
  WEAK_LABEL_AGREEMENT,
} from './text/label-agreement'
export { countExactLabel, countSameLabel, sameExactLabel } from './text/label-count'
export { areActionSynonyms, areRewordedPhrases, SYNONYM_AGREEMENT, UI_ACTION_SYNONYMS } from './text/ui-vocabulary'
export {
  type MemoryCandidateSource,
  type MemoryCandidateSourceOptions,
  memoryCandidateSource,
} from './memory-candidate-source'
export {
  type Frame,
  isAmbiguousMatch,
  type MatchTemplateOptions,
  matchTemplate,
  type TemplateMatch,
  templateScoreAt,
} from './image/match-template'
export {
  type AccuracyTracker,
  type CoordinateChange,
  createAccuracyTracker,
  type TrackedAction,
} from './accuracy-tracker'
export { type HealingRecordOptions, toHealingRecord } from './healing-record'
