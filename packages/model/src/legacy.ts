import { type Action, CLICK_LIKE_ACTION_TYPES, type SemanticInfo, type TestCase } from './types'

/** A semantic_info counts only when it says what was clicked (a target element). */
export function hasSemanticInfo(info: SemanticInfo | null | undefined): boolean {
  return (
    typeof info === 'object' && info !== null && typeof info.targetElement === 'object' && info.targetElement !== null
  )
}

export function isClickLike(action: Pick<Action, 'actionType'>): boolean {
  return CLICK_LIKE_ACTION_TYPES.includes(action.actionType)
}

/** True when a click-like action has neither a semantic description (desktop) nor an identity (web). */
export function isLegacyAction(action: Action, platform: TestCase['platform']): boolean {
  if (!isClickLike(action)) return false
  if (platform === 'web') return !(action.identity && typeof action.identity === 'object')
  return !hasSemanticInfo(action.semanticInfo)
}

/**
 * A case is legacy when any click-like action lacks a non-empty `semantic_info` (desktop) or an
 * `identity` (web). Cases without click-like actions are not legacy.
 */
export function isLegacyTestCase(testCase: Pick<TestCase, 'actions' | 'platform'>): boolean {
  return testCase.actions.some((a) => isLegacyAction(a, testCase.platform))
}
