import type { ScreenTransition } from '@qa/model'
import type { UiElement } from './types'

/** What intent inference looks at: an element (or its stored form) and, when present, the LLM's own intent. */
export interface IntentSource {
  type?: string | null
  text?: string | null
  description?: string | null
  /** An intent the vision model gave; preferred over the keyword rules. */
  intent?: string | null
}

const RULES: { intent: string; korean: string[]; english: RegExp }[] = [
  { intent: 'enter_game', korean: ['입장'], english: /\benter\b/i },
  { intent: 'open_settings', korean: ['설정'], english: /\bsettings?\b/i },
  { intent: 'confirm_action', korean: ['확인'], english: /\bok(ay)?\b/i },
]

/** `Open Settings!` → `open_settings`; empty when nothing is left. */
export function normalizeIntent(intent: string): string {
  return intent
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
}

/**
 * The intent of a click (`_infer_intent`): the model's own intent when it gave one, else keyword
 * rules on the description then the text, in Korean and English (입장/enter → enter_game, 설정/settings →
 * open_settings, 확인/ok → confirm_action), else `click_<type>`.
 */
export function inferIntent(
  element: IntentSource | UiElement | null | undefined,
  transition?: (ScreenTransition & { intent?: string | null }) | null,
): string {
  const given = (element as IntentSource | null | undefined)?.intent ?? transition?.intent
  if (typeof given === 'string' && normalizeIntent(given)) return normalizeIntent(given)
  const fields = [element?.description, element?.text].filter((s): s is string => typeof s === 'string' && s !== '')
  for (const field of fields)
    for (const rule of RULES)
      if (rule.korean.some((k) => field.includes(k)) || rule.english.test(field)) return rule.intent
  const type = normalizeIntent(element?.type ?? '') || 'unknown'
  return `click_${type}`
}
