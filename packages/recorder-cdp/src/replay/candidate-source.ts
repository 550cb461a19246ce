import type { CandidateElement, CandidateSource, Frame, LookupAttribute } from '@qa/matcher'
import type { ElementIdentity } from '@qa/model'
import type { FrameLocator, Locator, Page } from 'playwright-core'
import { closedShadowCandidates } from '../browser/cdp-closed-shadow'
import type { DirectClickTarget } from '../injected/direct-click'
import { describeElementsInPage, type PageElementDescription } from '../injected/page-scripts'
import { NESTED_CONTROL } from '../browser/own-click-point'
import { findCropOnScreen } from '../browser/visual'

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
  /**
   * The recorded shadow-root path (hosts from the top document). When it is not empty, and the element is in the
   * top document, closed shadow roots are searched too (over CDP): their elements are candidates without a locator,
   * clicked where `closedShadowTargetOf` aims.
   */
  shadowPath?: readonly string[] | null
}

type Scope = Page | FrameLocator

function toCandidate(
  d: PageElementDescription,
  handle: Locator | undefined,
  known?: { role: string; name: string },
): PlaywrightCandidate {
  const candidate: PlaywrightCandidate = {
    axRole: known?.role ?? d.implicitRole,
    axName: known?.name ?? d.accessibleName,
    ariaLabel: d.ariaLabel,
    dataTestId: d.dataTestId,
    name: d.name,
    tagName: d.tagName,
    type: d.type,
    placeholder: d.placeholder,
    boundingBox: d.box,
    pageScroll: d.pageScroll,
    textContent: d.textContent,
    id: d.id,
    classNames: d.classNames,
    iconClasses: d.iconClasses,
    href: d.href,
    xpath: d.xpath,
    neighborText: d.neighborText,
    visible: d.visible,
    enabled: d.enabled,
    groupPosition: d.groupPosition,
  }
  if (handle) candidate.handle = handle
  return candidate
}

/** Corrects descriptions made inside frames (`placeInTop`); the identity when the scope is the top document. */
type Placer = (descriptions: PageElementDescription[]) => Promise<void>

/**
 * The located elements whose centre a click reaches unobstructed (seen in the same round trip that described
 * them): `clickAsAPerson` clicks these at once instead of looking for a label or wrapper over them first. Keyed
 * by the candidate's locator, which lives as long as the step that located it.
 */
const centreIsOwn = new WeakSet<Locator>()

/** Whether the lookup that found this locator saw its centre reach the element itself (`centreIsOwn`). */
export const centreSeenOwn = (handle: Locator): boolean => centreIsOwn.has(handle)

/**
 * Where the page keeps each located element of the top document for a click straight at it (`direct-click.ts`),
 * keyed by the candidate's locator; the page keeps the last few lookups' elements only, so a locator of an older
 * lookup is answered "gone" there and clicked the usual way.
 */
const directTargets = new WeakMap<Locator, DirectClickTarget>()

/** Where the page keeps the element this locator was found as, for a click straight at it; undefined: none. */
export const directClickTargetOf = (handle: Locator): DirectClickTarget | undefined => directTargets.get(handle)

async function describeAll(
  locator: Locator,
  limit: number,
  known?: { role: string; name: string },
  labelsOnly = false,
  place?: Placer,
  centre = false,
  narrow?: (d: PageElementDescription) => Locator | null,
): Promise<PlaywrightCandidate[]> {
  const descriptions = (await locator.evaluateAll(describeElementsInPage, {
    labelsOnly,
    ...(centre ? { centre: NESTED_CONTROL } : {}),
    // the parent's path only where a narrowed locator is made of it (a role lookup)
    ...(narrow ? { parent: true } : {}),
  })) as PageElementDescription[]
  if (place) await place(descriptions)
  return descriptions.slice(0, limit).map((d, i) => {
    const narrowed = descriptions.length === 1 ? narrow?.(d) : null
    const handle = narrowed ?? locator.nth(i)
    if (narrowed) pageWide.set(narrowed, locator.nth(i))
    if (d.centreOwn) centreIsOwn.add(handle)
    if (d.direct) directTargets.set(handle, d.direct)
    return toCandidate(d, handle, known)
  })
}

/** The page-wide locator of the lookup a narrowed locator (`narrowedLocator`) stands for. */
const pageWide = new WeakMap<Locator, Locator>()

/**
 * The page-wide lookup behind a narrowed locator, or undefined: when the page moved the element's parent between
 * the lookup and the click (the narrowed locator reaches nothing), the click looks for it by role and name again.
 */
export const pageWideLocatorOf = (handle: Locator): Locator | undefined => pageWide.get(handle)

/**
 * The only element a role lookup found, as the same role-and-name lookup inside its parent (`parentCss`, unique in
 * its document when it was described): what the step's actions then query is the parent's few descendants, not
 * every element of the page. It reaches an element of that role and name or none, never another control; null
 * when the parent has no such path (in a shadow root, or not unique).
 */
function narrowedLocator(
  within: Scope,
  d: PageElementDescription,
  byRoleIn: (s: Scope | Locator) => Locator,
): Locator | null {
  return d.parentCss ? byRoleIn(within.locator(`css:light=${d.parentCss}`)) : null
}

/**
 * Zero-width spaces and soft hyphens: Chromium keeps them in an accessible name (swagger-ui's "get \u200b/items"),
 * Playwright's role engine drops them before it matches a name.
 */
const INVISIBLE_IN_NAMES = /[\u200b\u00ad]/g

/**
 * The whole accessible name, ignoring case and runs of spaces: Chromium applies `text-transform` to names
 * ("sneat" drawn as "Sneat"), and a name recorded from the DOM text must still find its element. Zero-width
 * spaces and soft hyphens are left out, as Playwright's role engine leaves them out of the names it matches.
 */
export function wholeName(name: string): RegExp {
  const words = name
    .replace(INVISIBLE_IN_NAMES, '')
    .trim()
    .split(/\s+/)
    .map((w) =>
      w
        .replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
        // quotes as hex escapes: Playwright writes the pattern into a selector string and leaves the second of two
        // adjacent quotes raw there (`Clear ""` failed with InvalidSelectorError)
        .replace(/["'`]/g, (q) => `\\x${q.charCodeAt(0).toString(16)}`),
    )
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
  let resolved: Promise<ResolvedFramePath> | null = null
  const frames = (): Promise<ResolvedFramePath> => {
    resolved ??= resolveFramePath(page, opts.framePath ?? [])
    return resolved
  }
  const scope = async (): Promise<Scope> => (await frames()).scope
  const limit = opts.maxCandidates ?? 400
  const place: Placer = async (descriptions) => placeInTop(page, (await frames()).used, descriptions)
  // closed shadow roots: only for an element recorded in a shadow root of the top document (a CDP walk of the page)
  const closed =
    (opts.shadowPath?.length ?? 0) > 0 && (opts.framePath?.length ?? 0) === 0
      ? closedShadowCandidates(page, (d) => toCandidate(d, undefined))
      : null
  /** The closed-shadow elements matching `css` that pass `keep`, after the ones a locator found. */
  const withClosed = async (
    found: PlaywrightCandidate[],
    css: string,
    keep: (d: PageElementDescription) => boolean = () => true,
  ): Promise<PlaywrightCandidate[]> => {
    if (!closed || found.length >= limit) return found
    const hidden = (await closed.query(css)).filter((c) => keep(c.description)).map((c) => c.candidate)
    return [...found, ...hidden].slice(0, limit)
  }
  const normalised = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim()
  return {
    async byRole(role, name) {
      const within = await scope()
      const whole = wholeName(name)
      const byRoleIn = (s: Scope | Locator) => s.getByRole(role as Parameters<Page['getByRole']>[0], { name: whole })
      return withClosed(
        await describeAll(byRoleIn(within), limit, { role, name }, false, place, true, (d) =>
          narrowedLocator(within, d, byRoleIn),
        ),
        INTERACTIVE_SELECTOR,
        (d) => d.implicitRole === role && whole.test((d.accessibleName ?? '').replace(INVISIBLE_IN_NAMES, '')),
      )
    },
    async byAttribute(attribute, value, tagName) {
      const css = `${tagName ?? ''}[${ATTRIBUTE[attribute]}=${quote(value)}]`
      return withClosed(await describeAll((await scope()).locator(css), limit, undefined, false, place, true), css)
    },
    async bySelector(selector, kind) {
      const found = await describeAll(
        (await scope()).locator(kind === 'xpath' ? `xpath=${selector}` : selector),
        limit,
        undefined,
        false,
        place,
        true,
      )
      // a recorded CSS path inside a shadow root is relative to that root; XPath does not enter shadow roots
      return kind === 'css' ? withClosed(found, selector) : found
    },
    async byText(text) {
      const found = await describeAll(
        (await scope()).getByText(text, { exact: true }),
        limit,
        undefined,
        false,
        place,
        true,
      )
      return withClosed(found, INTERACTIVE_SELECTOR, (d) => normalised(d.textContent) === normalised(text))
    },
    async listCandidates() {
      return withClosed(
        await describeAll((await scope()).locator(INTERACTIVE_SELECTOR), limit, undefined, false, place),
        INTERACTIVE_SELECTOR,
      )
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
  return (await resolveFramePath(page, framePath)).scope
}

/** A resolved iframe path: the scope, and the selector each frame was found by (recorded or healed). */
export interface ResolvedFramePath {
  scope: Scope
  used: string[]
}

/** `resolveFrameScope`, saying which selector found each frame. */
export async function resolveFramePath(page: Page, framePath: readonly string[]): Promise<ResolvedFramePath> {
  let scope: Scope = page
  const used: string[] = []
  for (const selector of framePath) {
    let use = selector
    const matches = await scope
      .locator(selector)
      .count()
      .catch(() => 0)
    if (matches !== 1 && (await scope.locator(FRAME_SELECTOR).count()) === 1) use = FRAME_SELECTOR
    used.push(use)
    scope = scope.frameLocator(use)
  }
  return { scope, used }
}

/**
 * Places descriptions made inside a frame path in the top document. A page script walks up from its frame only
 * as far as the first cross-origin parent: beyond it, it knows neither the frames' selectors nor their place. The
 * frames it could not walk through are the first ones of `used`; the box is moved by the content-box origin of
 * the last of them (read by Playwright, which reaches every frame) and the frame path is completed.
 */
async function placeInTop(page: Page, used: readonly string[], descriptions: PageElementDescription[]): Promise<void> {
  const origins = new Map<number, Promise<{ x: number; y: number } | null>>()
  for (const d of descriptions) {
    const unwalked = used.length - d.framePath.length
    if (unwalked <= 0) continue
    let origin = origins.get(unwalked)
    if (!origin) {
      origin = iframeContentOrigin(page, used.slice(0, unwalked))
      origins.set(unwalked, origin)
    }
    const at = await origin
    if (!at) continue
    d.box = { ...d.box, x: d.box.x + at.x, y: d.box.y + at.y }
    d.framePath = [...used.slice(0, unwalked), ...d.framePath]
  }
}

/** The content-box origin (top-level viewport) of the iframe a frame path ends with, or null. */
async function iframeContentOrigin(page: Page, path: readonly string[]): Promise<{ x: number; y: number } | null> {
  let scope: Scope = page
  for (const selector of path.slice(0, -1)) scope = scope.frameLocator(selector)
  const iframe = scope.locator(path.at(-1) ?? FRAME_SELECTOR).first()
  try {
    const box = await iframe.boundingBox({ timeout: 2_000 })
    if (!box) return null
    const inset = await iframe.evaluate((el) => {
      const style = getComputedStyle(el)
      return {
        x: el.clientLeft + Number.parseFloat(style.paddingLeft),
        y: el.clientTop + Number.parseFloat(style.paddingTop),
      }
    })
    return { x: box.x + inset.x, y: box.y + inset.y }
  } catch {
    return null
  }
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
  const { scope, used } = await resolveFramePath(page, framePath ?? [])
  return describeAll(scope.locator(INTERACTIVE_SELECTOR), limit, undefined, true, (ds) => placeInTop(page, used, ds))
}

/** The frame scope an identity was recorded in. */
export function frameScopeOf(identity: Pick<ElementIdentity, 'framePath'> | null | undefined): readonly string[] {
  return identity?.framePath ?? []
}
