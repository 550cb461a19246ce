import { INTERACTIVE_ROLES } from '@qa/matcher'
import type { Locator } from 'playwright-core'
import type { OwnClickPoint } from '../injected/click-point'
import { ownClickPointInPage } from '../injected/page-scripts'

export type { OwnClickPoint } from '../injected/click-point'

/** Markup that makes a descendant a control of its own (`chooseClickTarget`'s native and role signs). */
export const NESTED_CONTROL = [
  'a[href]',
  'area[href]',
  'button',
  'input:not([type="hidden" i])',
  'select',
  'textarea',
  'summary',
  '[contenteditable=""]',
  '[contenteditable="true" i]',
  ...[...INTERACTIVE_ROLES].map((r) => `[role~="${r}" i]`),
].join(',')

/** The click point of `handle` (see `OwnClickPoint`); the element is scrolled into view first, as a click does. */
export async function ownClickPoint(handle: Locator, timeout: number): Promise<OwnClickPoint> {
  return handle.evaluate(ownClickPointInPage, NESTED_CONTROL, { timeout })
}
