/**
 * Functions that run inside the page, as Node hands them to Playwright and CDP: each is the bundled source of the
 * page module it names (see `page-function.ts`), so the modules share helpers (text, roles, frame offsets) instead
 * of copying them.
 */
import type {
  clickAimInPage as clickAim,
  clickAimOfOneInPage as clickAimOfOne,
  coveringPartInPage as coveringPart,
  ownClickPointInPage as ownClickPoint,
} from './click-point'
import type { describeElementsInPage as describeElements } from './describe-elements'
import type {
  armDirectClickInPage as armDirectClick,
  disarmDirectClickInPage as disarmDirectClick,
  installPressGuardInPage as installPressGuard,
  leavingInPage as leaving,
  watchNavigationInPage as watchNavigation,
} from './direct-click'
import type {
  describeAssertChainInPage as describeAssertChain,
  describeHitChainInPage as describeHitChain,
  hitChainInPage as hitChain,
  operatedControlInPage as operatedControl,
} from './hit-chain'
import type { installInputReporterInPage as installInputReporter } from './input-reporter'
import type { loopingAnimationBoxesInPage as loopingAnimationBoxes } from './looping-animations'
import { pageFunction } from './page-function'
import type {
  waitForDomQuietInPage as waitForDomQuiet,
  waitForFiniteAnimationsInPage as waitForFiniteAnimations,
} from './waits'

export type { PageElementDescription } from './describe-elements'

/**
 * Describes elements: attributes, text, unique-ish CSS and XPath within their root, text of neighbours,
 * the frame and shadow-root path from the top document, and the box in top-level viewport coordinates.
 */
export const describeElementsInPage = pageFunction<typeof describeElements>('describeElements')

/** The elements from the node under the pointer up to the document element, along the flat tree. */
export const hitChainInPage = pageFunction<typeof hitChain>('hitChain')

/** What `chooseClickTarget` needs to know about each element of a hit chain (`this`). */
export const describeHitChainInPage = pageFunction<typeof describeHitChain>('describeHitChain')

/** The control a clicked element operates, or null. */
export const operatedControlInPage = pageFunction<typeof operatedControl>('operatedControl')

/** Resolves when the DOM has been quiet for `quietMs` (or after `timeoutMs`), then two animation frames. */
export const waitForDomQuietInPage = pageFunction<typeof waitForDomQuiet>('waitForDomQuiet')

/** What `chooseAssertTarget` needs to know about each element of a hit chain (`this`). */
export const describeAssertChainInPage = pageFunction<typeof describeAssertChain>('describeAssertChain')

/** Resolves once the finite CSS transitions and animations running now have finished, at most `timeoutMs`. */
export const waitForFiniteAnimationsInPage = pageFunction<typeof waitForFiniteAnimations>('waitForFiniteAnimations')

/** The boxes of what loops by itself (animations with infinite iterations), widened by `margin`, in the viewport. */
export const loopingAnimationBoxesInPage = pageFunction<typeof loopingAnimationBoxes>('loopingAnimationBoxes')

/**
 * Reports the person's trusted input in the recorder's isolated world of a frame through `binding` (run at
 * document start in every frame).
 */
export const installInputReporterInPage = pageFunction<typeof installInputReporter>('installInputReporter')

/** Where a click on an element reaches it rather than a control nested inside it (`OwnClickPoint`). */
export const ownClickPointInPage = pageFunction<typeof ownClickPoint>('ownClickPoint')

/** The control's own label or wrapper part covering its centre, or null. */
export const coveringPartInPage = pageFunction<typeof coveringPart>('coveringPart')

/** Whether the control's own label or wrapper covers it, and else its own click point, in one call (`ClickAim`). */
export const clickAimInPage = pageFunction<typeof clickAim>('clickAim')

/** `clickAimInPage` of the one element a locator reaches, for `evaluateAll` (null when it reaches 0 or several). */
export const clickAimOfOneInPage = pageFunction<typeof clickAimOfOne>('clickAimOfOne')

/** The point to click a lookup's element at straight, its guard armed; null when the usual click must do it. */
export const armDirectClickInPage = pageFunction<typeof armDirectClick>('armDirectClick')

/** Ends the direct click's guard: whether its press reached the element (`DirectClickOutcome`). */
export const disarmDirectClickInPage = pageFunction<typeof disarmDirectClick>('disarmDirectClick')

/** The direct click's press listeners, at the start of a document: before any listener of the page (init script). */
export const installPressGuardInPage = pageFunction<typeof installPressGuard>('installPressGuard')

/** Before an input given otherwise (a key): a navigation to another document it asks for is noted from now on. */
export const watchNavigationInPage = pageFunction<typeof watchNavigation>('watchNavigation')

/** After that input: whether the page is leaving for a document it asked for. */
export const leavingInPage = pageFunction<typeof leaving>('leaving')
