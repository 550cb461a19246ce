import { k, opt, req, schema } from './schema'
import {
  ACTION_TYPES,
  ASSERTION_KINDS,
  ASSERTION_OPS,
  DIALOG_TYPES,
  ENRICHMENT_STATUSES,
  KEY_MODIFIERS,
  MOUSE_BUTTONS,
  PLATFORMS,
  REPLAY_METHODS,
  REPLAY_SETTLES,
  STRATEGY_OUTCOMES,
  VERDICTS,
} from './types'

/** The file-format schemas of every object type, current version. */

const coordinate = k.integer()
const ratio = k.number(0, 1)
const count = k.integer(0)
const nonNegative = k.number(0)

export const boundingBoxSchema = schema('BoundingBox', [
  req('x', k.number()),
  req('y', k.number()),
  req('width', nonNegative),
  req('height', nonNegative),
])

export const pointSchema = schema('Point', [req('x', k.number()), req('y', k.number())])

export const sizeSchema = schema('Size', [req('width', k.integer(1)), req('height', k.integer(1))])

export const screenInfoSchema = schema('ScreenInfo', [
  req('width', k.integer(1)),
  req('height', k.integer(1)),
  opt('scale', k.number(0)),
  opt('displays', k.array(k.object(boundingBoxSchema))),
])

export const targetElementSchema = schema('TargetElement', [
  req('type', k.string()),
  opt('text', k.string()),
  opt('description', k.string()),
  opt('boundingBox', k.object(boundingBoxSchema)),
  opt('confidence', ratio),
  opt('visualFeatures', k.json()),
  opt('relativePosition', k.string()),
])

export const actionContextSchema = schema('ActionContext', [
  opt('screenState', k.string()),
  opt('nearbyElements', k.array(k.json())),
  opt('expectedResult', k.string()),
])

export const semanticInfoSchema = schema('SemanticInfo', [
  opt('intent', k.string()),
  opt('targetElement', k.object(targetElementSchema)),
  opt('context', k.object(actionContextSchema)),
])

export const screenTransitionSchema = schema('ScreenTransition', [
  opt('changed', k.boolean()),
  opt('transitionType', k.string()),
  opt('hashDifference', k.number(0)),
  opt('resultState', k.string()),
  opt('success', k.boolean()),
])

export const groupPositionSchema = schema('GroupPosition', [
  req('index', k.integer(0)),
  req('size', k.integer(1)),
  opt('value', k.string()),
])

export const elementIdentitySchema = schema('ElementIdentity', [
  opt('axRole', k.string()),
  opt('axName', k.string()),
  opt('ariaLabel', k.string()),
  opt('dataTestId', k.string()),
  opt('name', k.string()),
  req('tagName', k.string(1)),
  opt('type', k.string()),
  opt('placeholder', k.string()),
  req('boundingBox', k.object(boundingBoxSchema)),
  opt('visualHash', k.string()),
  opt('textContent', k.string()),
  opt('capturedAt', k.integer(0)),
  opt('id', k.string()),
  opt('classNames', k.array(k.string())),
  opt('iconClasses', k.array(k.string())),
  opt('href', k.string()),
  opt('xpath', k.string()),
  opt('neighborText', k.array(k.string())),
  opt('framePath', k.array(k.string())),
  opt('shadowPath', k.array(k.string())),
  opt('backendNodeId', k.integer()),
  opt('sameLabelCount', k.integer(0)),
  opt('fieldsInLandmark', k.integer(1)),
  opt('exactLabelCount', k.integer(0)),
  opt('groupPosition', k.object(groupPositionSchema)),
  opt('pageScroll', k.object(pointSchema)),
])

export const selectorsSchema = schema('Selectors', [
  opt('css', k.string()),
  opt('xpath', k.string()),
  opt('fallbacks', k.array(k.string())),
])

export const strategyAttemptSchema = schema('StrategyAttempt', [
  req('strategy', k.string(1)),
  req('outcome', k.enum(STRATEGY_OUTCOMES)),
  opt('candidates', count),
  opt('confidence', ratio),
  opt('durationMs', nonNegative),
  opt('detail', k.string()),
])

export const healingRecordSchema = schema('HealingRecord', [
  req('healedAt', k.string(1)),
  req('strategy', k.string(1)),
  req('confidence', ratio),
  opt('previousSelector', k.string()),
  opt('newSelector', k.string()),
  opt('coordinateChange', k.object(pointSchema)),
  opt('strategiesTried', k.array(k.object(strategyAttemptSchema))),
  opt('verified', k.boolean()),
])

export const desktopWindowSchema = schema('DesktopWindow', [
  req('box', k.object(boundingBoxSchema)),
  opt('className', k.string()),
  opt('title', k.string()),
])

export const dialogAnswerSchema = schema('DialogAnswer', [
  req('type', k.enum(DIALOG_TYPES)),
  opt('message', k.string()),
  req('accept', k.boolean()),
  opt('promptText', k.string()),
])

export const assertionSchema = schema('Assertion', [
  req('kind', k.enum(ASSERTION_KINDS)),
  opt('op', k.enum(ASSERTION_OPS)),
  opt('expected', k.union(k.string(), k.number(), k.boolean())),
])

export const unknownRegionsSchema = schema('UnknownRegions', [
  opt('before', k.array(k.object(boundingBoxSchema))),
  opt('after', k.array(k.object(boundingBoxSchema))),
])

export const actionSchema = schema('Action', [
  req('timestamp', k.union(k.string(1), k.number(0))),
  req('actionType', k.enum(ACTION_TYPES)),
  req('x', coordinate),
  req('y', coordinate),
  opt('button', k.enum(MOUSE_BUTTONS)),
  opt('modifiers', k.array(k.enum(KEY_MODIFIERS))),
  opt('key', k.string()),
  opt('text', k.string()),
  opt('value', k.string()),
  opt('secretEnv', k.string(1)),
  opt('endX', coordinate),
  opt('endY', coordinate),
  opt('dropIdentity', k.object(elementIdentitySchema)),
  opt('dropSelectors', k.object(selectorsSchema)),
  opt('scrollDx', k.integer()),
  opt('scrollDy', k.integer()),
  opt('durationMs', nonNegative),
  opt('url', k.string()),
  opt('opensPage', k.boolean()),
  opt('dialog', k.object(dialogAnswerSchema)),
  opt('files', k.array(k.string(1))),
  req('description', k.string()),
  opt('screenshotBeforePath', k.casePath()),
  opt('screenshotPath', k.casePath()),
  opt('elementCropPath', k.casePath()),
  opt('elementCropBox', k.object(boundingBoxSchema)),
  opt('unknownRegions', k.object(unknownRegionsSchema)),
  opt('animatedRegions', k.array(k.object(boundingBoxSchema))),
  opt('uiStateHashBefore', k.string()),
  opt('uiStateHashAfter', k.string()),
  opt('semanticInfo', k.object(semanticInfoSchema)),
  opt('screenTransition', k.object(screenTransitionSchema)),
  opt('identity', k.object(elementIdentitySchema)),
  opt('selectors', k.object(selectorsSchema)),
  opt('healingHistory', k.array(k.object(healingRecordSchema))),
  opt('enrichmentStatus', k.enum(ENRICHMENT_STATUSES)),
  opt('operates', k.object(elementIdentitySchema)),
  opt('warning', k.string()),
  opt('assertion', k.object(assertionSchema)),
  opt('window', k.object(desktopWindowSchema)),
])

const testCaseFields = (platformRequired: boolean) => [
  req('name', k.string()),
  req('version', k.string(1)),
  (platformRequired ? req : opt)('platform', k.enum(PLATFORMS)),
  opt('createdAt', k.string()),
  opt('enrichedAt', k.string()),
  opt('description', k.string()),
  opt('tags', k.array(k.string())),
  opt('startUrl', k.string()),
  opt('viewport', k.object(sizeSchema)),
  opt('screen', k.object(screenInfoSchema)),
  req('actions', k.array(k.object(actionSchema))),
]

/** Version 3.0: `platform` is required. */
export const testCaseSchema = schema('TestCase', testCaseFields(true))
/** Versions 1.0 and 2.0 before migration: no `platform`, `version` may be absent in 1.0. */
export const legacyTestCaseSchema = schema(
  'TestCase',
  testCaseFields(false).map((f) => (f.model === 'version' ? { ...f, required: false } : f)),
)

export const replayResultSchema = schema('ReplayResult', [
  req('actionId', k.string()),
  opt('actionIndex', count),
  req('success', k.boolean()),
  req('method', k.enum(REPLAY_METHODS)),
  req('originalCoords', k.object(pointSchema)),
  opt('actualCoords', k.object(pointSchema)),
  opt('coordinateChange', k.object(pointSchema)),
  req('matchConfidence', ratio),
  req('screenTransitionVerified', k.boolean()),
  req('errorMessage', k.string()),
  opt('strategiesTried', k.array(k.object(strategyAttemptSchema))),
  opt('durationMs', nonNegative),
  opt('warning', k.string()),
  opt('recordedName', k.string()),
  opt('foundName', k.string()),
  opt('foundBox', k.object(boundingBoxSchema)),
  opt('foundCrop', k.string()),
  opt('quickLocate', k.boolean()),
  opt('settle', k.enum(REPLAY_SETTLES)),
  opt('settleMs', nonNegative),
])

export const verificationResultSchema = schema('VerificationResult', [
  req('actionIndex', count),
  req('actionDescription', k.string()),
  req('screenshotMatch', k.boolean()),
  req('screenshotSimilarity', ratio),
  req('visionVerified', k.boolean()),
  req('visionMatch', k.boolean()),
  req('finalResult', k.enum(VERDICTS)),
  opt('reason', k.string()),
  opt('expectedScreenshot', k.string()),
  opt('actualScreenshot', k.string()),
  opt('diffScreenshot', k.string()),
  opt('durationMs', nonNegative),
  opt('regionSimilarity', ratio),
  opt('expectedRegion', k.object(boundingBoxSchema)),
  opt('actualRegion', k.object(boundingBoxSchema)),
  opt('details', k.record(k.json())),
  opt('step', k.integer(1)),
  opt('firstCause', k.boolean()),
  opt('afterFirstCause', k.integer(1)),
  opt('notRun', k.boolean()),
])

export const firstCauseSchema = schema('FirstCause', [
  req('step', k.integer(1)),
  req('actionIndex', count),
  req('description', k.string()),
  req('reason', k.string()),
])

export const accuracyStatsSchema = schema('AccuracyStats', [
  req('totalActions', count),
  req('successCount', count),
  req('failedCount', count),
  req('semanticMatchCount', count),
  req('coordinateMatchCount', count),
  req('byMethod', k.record(count)),
  req('failureReasons', k.record(count)),
  req('averageMatchConfidence', ratio),
  req('averageCoordinateShift', nonNegative),
])

export const visionUsageSchema = schema('VisionUsage', [
  req('provider', k.string()),
  req('calls', count),
  req('cacheHits', count),
  opt('inputTokens', count),
  opt('outputTokens', count),
  opt('totalLatencyMs', nonNegative),
])

export const screenSizeChangeSchema = schema('ScreenSizeChange', [
  req('recorded', k.object(sizeSchema)),
  req('replayed', k.object(sizeSchema)),
  req('message', k.string()),
])

export const acceptanceStepSchema = schema('AcceptanceStep', [
  req('actionIndex', count),
  opt('screenshotBefore', k.string(1)),
  opt('screenshotBeforeSha256', k.string(1)),
  opt('screenshotAfter', k.string(1)),
  opt('screenshotAfterSha256', k.string(1)),
  opt('elementBox', k.object(boundingBoxSchema)),
  opt('actualCoords', k.object(pointSchema)),
  opt('identity', k.object(elementIdentitySchema)),
  opt('selectors', k.object(selectorsSchema)),
  opt('healing', k.object(healingRecordSchema)),
  opt('verdict', k.enum(VERDICTS)),
])

export const replayAcceptanceSchema = schema('ReplayAcceptance', [
  req('caseFile', k.string(1)),
  req('caseSha256', k.string(1)),
  req('steps', k.array(k.object(acceptanceStepSchema))),
])

export const replayReportSchema = schema('ReplayReport', [
  req('testCaseName', k.string()),
  req('sessionId', k.string()),
  req('startTime', k.string()),
  req('endTime', k.string()),
  req('totalActions', count),
  req('passedCount', count),
  req('failedCount', count),
  req('warningCount', count),
  req('successRate', ratio),
  opt('passed', k.boolean()),
  req('verificationResults', k.array(k.object(verificationResultSchema))),
  opt('replayResults', k.array(k.object(replayResultSchema))),
  opt('accuracyStats', k.object(accuracyStatsSchema)),
  opt('visionUsage', k.object(visionUsageSchema)),
  opt('testCasePath', k.string()),
  opt('platform', k.enum(PLATFORMS)),
  opt('screenSizeChange', k.object(screenSizeChangeSchema)),
  opt('firstCause', k.object(firstCauseSchema)),
  opt('maxFailures', k.integer(1)),
  opt('notRunCount', count),
  opt('unverifiedSteps', k.array(count)),
  req('summary', k.string()),
  opt('acceptance', k.object(replayAcceptanceSchema)),
])

export const enrichmentResultSchema = schema('EnrichmentResult', [
  req('totalActions', count),
  req('enrichedCount', count),
  req('skippedCount', count),
  req('failedCount', count),
  req('version', k.string()),
])
