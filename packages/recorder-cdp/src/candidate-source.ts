import type { CandidateElement, CandidateSource, Frame, LookupAttribute } from '@qa/matcher'
import type { ElementIdentity } from '@qa/model'
import type { FrameLocator, Locator, Page } from 'playwright-core'
import { describeElementsInPage, type PageElementDescription } from './page-scripts'
import { findCropOnScreen } from './visual'

/** What a candidate's handle is: a Playwright locator for exactly that element. */
export type PlaywrightCandidate = CandidateElement<Locator>

/** Elements a user can act on; Playwright's CSS engine pierces open shadow roots. */
export const INTERACTIVE_SELECTOR = [
  'button',
  'a[href]',
  'input:not([type="hidden" i])',
  'select',
  'textarea',
  'summary',
  '[role]:not([role="presentation"]):not([role="none"]):not([role="generic"])',
  '[onclick]',
  '[tabindex]:not([tabindex="-1"])',
  '[contenteditable=""]',
  '[contenteditable="true"]',
].join(', ')

export interface PlaywrightCandidateSourceOptions {
  /** The recorded iframe path (CSS selectors from the top document); lookups happen inside that frame. */
  framePath?: readonly string[] | null
  /** At most this many candidates for the similarity strategy (default 400). */
  maxCandidates?: number
  /** The recorded element's pixels: enables the visual strategy (template matching on a screenshot). */
  elementCrop?: Frame | null
  /** Loads the recorded element's pixels when the visual strategy runs (most steps never get there). */
  loadElementCrop?: (() => Promise<Frame | null>) | null
  /** NCC a visual hit needs (default 0.8, the matcher's visual threshold decides in the end). */
  visualThreshold?: number
}

type Scope = Page | FrameLocator

function toCandidate(
  d: PageElementDescription,
  handle: Locator,
  known?: { role: string; name: string },
): PlaywrightCandidate {
  return {
    axRole: known?.role ?? d.implicitRole,
    axName: known?.name ?? d.accessibleName,
    ariaLabel: d.ariaLabel,
    dataTestId: d.dataTestId,
    name: d.name,
    tagName: d.tagName,
    type: d.type,
    placeholder: d.placeholder,
    boundingBox: d.box,
    textContent: d.textContent,
    id: d.id,
    classNames: d.classNames,
    iconClasses: d.iconClasses,
    href: d.href,
    xpath: d.xpath,
    neighborText: d.neighborText,
    visible: d.visible,
    enabled: d.enabled,
    handle,
  }
}

async function describeAll(
  locator: Locator,
  limit: number,
  known?: { role: string; name: string },
  labelsOnly = false,
  frameOrigin?: () => Promise<{ x: number; y: number } | null>,
): Promise<PlaywrightCandidate[]> {
  const descriptions = (await locator.evaluateAll(describeElementsInPage, { labelsOnly })) as PageElementDescription[]
  // a frame that cannot see its iframe (another origin, out of process) describes boxes in its own viewport:
  // they are moved into the page's, where the recorded box is
  if (frameOrigin && descriptions.some((d) => d.framePath.length === 0)) {
    const origin = await frameOrigin()
    if (origin)
      for (const d of descriptions)
        if (d.framePath.length === 0) d.box = { ...d.box, x: d.box.x + origin.x, y: d.box.y + origin.y }
  }
  return descriptions.slice(0, limit).map((d, i) => toCandidate(d, locator.nth(i), known))
}

/** Where the innermost frame of a scope shows its viewport's (0, 0) in the page: its iframe's content box. */
async function frameOriginOf(scope: Scope): Promise<{ x: number; y: number } | null> {
  if (!('owner' in scope)) return { x: 0, y: 0 }
  const iframe = scope.owner()
  const box = await iframe.boundingBox()
  if (!box) return null
  const inset = await iframe.evaluate((el) => {
    const style = getComputedStyle(el)
    return {
      x: el.clientLeft + Number.parseFloat(style.paddingLeft || '0'),
      y: el.clientTop + Number.parseFloat(style.paddingTop || '0'),
    }
  })
  return { x: box.x + inset.x, y: box.y + inset.y }
}

/**
 * The whole accessible name, ignoring case and runs of spaces: Chromium applies `text-transform` to names
 * ("sneat" drawn as "Sneat"), and a name recorded from the DOM text must still find its element.
 */
export function wholeName(name: string): RegExp {
  const words = name
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^\\s*${words.join('\\s+')}\\s*$`, 'i')
}

/**
 * Runs in the page: indexes of the elements a click at the viewport point would reach — the element hit there
 * and its ancestors (across shadow roots). A `display: contents` button has no box of its own; its content is
 * what the point hits.
 */
function indexesUnderInPage(elements: Element[], point: { x: number; y: number }): number[] {
  const chain = new Set<Element>()
  for (let el: Element | null = document.elementFromPoint(point.x, point.y); el; ) {
    chain.add(el)
    const root = el.getRootNode()
    el = el.parentElement ?? (root instanceof ShadowRoot ? root.host : null)
  }
  const out: number[] = []
  elements.forEach((el, i) => {
    if (chain.has(el)) out.push(i)
  })
  return out
}

const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
const ATTRIBUTE: Record<LookupAttribute, string> = {
  'aria-label': 'aria-label',
  name: 'name',
  'data-testid': 'data-testid',
  id: 'id',
  placeholder: 'placeholder',
}

/**
 * The matcher's `CandidateSource` over a Playwright page: exact lookups by role and name, attribute, stored
 * selector and text, and a list of every interactive element with its attributes and box (one round trip).
 * Use it to add our healing to your own Playwright tests: `locate(identity, playwrightCandidateSource(page))`.
 */
export function playwrightCandidateSource(
  page: Page,
  opts: PlaywrightCandidateSourceOptions = {},
): CandidateSource<Locator> {
  let resolved: Promise<Scope> | null = null
  const scope = (): Promise<Scope> => {
    resolved ??= resolveFrameScope(page, opts.framePath ?? [])
    return resolved
  }
  const limit = opts.maxCandidates ?? 400
  let origin: Promise<{ x: number; y: number } | null> | null = null
  const frameOrigin =
    (opts.framePath?.length ?? 0) > 0
      ? () => {
          origin ??= scope()
            .then(frameOriginOf)
            .catch(() => null)
          return origin
        }
      : undefined
  return {
    async byRole(role, name) {
      const locator = (await scope()).getByRole(role as Parameters<Page['getByRole']>[0], { name: wholeName(name) })
      return describeAll(locator, limit, { role, name }, false, frameOrigin)
    },
    async byAttribute(attribute, value, tagName) {
      return describeAll(
        (await scope()).locator(`${tagName ?? ''}[${ATTRIBUTE[attribute]}=${quote(value)}]`),
        limit,
        undefined,
        false,
        frameOrigin,
      )
    },
    async bySelector(selector, kind) {
      return describeAll(
        (await scope()).locator(kind === 'xpath' ? `xpath=${selector}` : selector),
        limit,
        undefined,
        false,
        frameOrigin,
      )
    },
    async byText(text) {
      return describeAll((await scope()).getByText(text, { exact: true }), limit, undefined, false, frameOrigin)
    },
    async listCandidates() {
      return describeAll((await scope()).locator(INTERACTIVE_SELECTOR), limit, undefined, false, frameOrigin)
    },
    ...(opts.elementCrop || opts.loadElementCrop
      ? {
          visual: async () => {
            const crop = opts.elementCrop ?? (await opts.loadElementCrop?.())
            if (!crop) return null
            const png = await page.screenshot({ animations: 'disabled', caret: 'hide' })
            const interactive = page.locator(INTERACTIVE_SELECTOR)
            const all = await describeAll(interactive, limit)
            return findCropOnScreen(png, crop, {
              all: async () => all,
              complete: all.length < limit,
              under: async (x, y) => {
                const at = (await interactive.evaluateAll(indexesUnderInPage, { x, y })) as number[]
                return (await Promise.all(at.map((i) => describeAll(interactive.nth(i), 1)))).flat()
              },
            })
          },
        }
      : {}),
  }
}

const FRAME_SELECTOR = 'iframe, frame'

/**
 * The recorded iframe path as a Playwright scope, healed where a frame's recorded selector no longer
 * matches exactly one frame (a redesign renamed its id): the only frame of its parent then stands in.
 */
export async function resolveFrameScope(page: Page, framePath: readonly string[]): Promise<Scope> {
  let scope: Scope = page
  for (const selector of framePath) {
    let use = selector
    const matches = await scope
      .locator(selector)
      .count()
      .catch(() => 0)
    if (matches !== 1 && (await scope.locator(FRAME_SELECTOR).count()) === 1) use = FRAME_SELECTOR
    scope = scope.frameLocator(use)
  }
  return scope
}

/**
 * Every interactive element of the frame with its labels, role, XPath and box only (no CSS path, no
 * neighbours): a cheaper `listCandidates` for counting who carries a label (`sameLabelCount`).
 */
export async function listCandidateLabels(
  page: Page,
  framePath: readonly string[] | null | undefined,
  limit = 400,
): Promise<PlaywrightCandidate[]> {
  const scope = await resolveFrameScope(page, framePath ?? [])
  const frameOrigin = (framePath?.length ?? 0) > 0 ? () => frameOriginOf(scope).catch(() => null) : undefined
  return describeAll(scope.locator(INTERACTIVE_SELECTOR), limit, undefined, true, frameOrigin)
}

/** The frame scope an identity was recorded in. */
export function frameScopeOf(identity: Pick<ElementIdentity, 'framePath'> | null | undefined): readonly string[] {
  return identity?.framePath ?? []
}
