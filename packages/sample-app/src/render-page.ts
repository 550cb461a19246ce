import { type MutationName, normalizeMutations, versionOf } from './mutations'
import {
  defaultSettings,
  type RenderContext,
  renderFrame,
  renderFrameInner,
  renderList,
  renderLogin,
  renderSettings,
  renderWidgets,
  type SampleSettings,
} from './internal/pages'
import type { SamplePage } from './targets'

export { defaultSettings, type SampleSettings }

/** Inputs of {@link renderPage}. */
export interface RenderPageOptions {
  /** Active mutations (default none = v1). */
  readonly mutations?: readonly MutationName[]
  /** Seed of the css-<hash> class names (default `'0'`). */
  readonly classSeed?: string | number
  /** Logged-in user shown in the header (default `'tester'`). */
  readonly user?: string
  readonly settings?: SampleSettings
  /** Error line shown on /login. */
  readonly error?: string
  /** Query appended to the iframe src on /frame, e.g. `m=renamed-ids`. */
  readonly variantQuery?: string
}

/** Label of a mutation list in events: `v1`, `v2` or the comma-separated names. */
export function variantLabel(mutations: readonly MutationName[]): string {
  return versionOf(mutations) ?? normalizeMutations(mutations).join(',')
}

/** @internal builds the render context shared by the server and {@link renderPage}. */
export function renderContext(opts: RenderPageOptions & { next?: string; loggedIn?: boolean }): RenderContext {
  const mutations = normalizeMutations(opts.mutations ?? [])
  return {
    mutations: new Set(mutations),
    classSeed: String(opts.classSeed ?? '0'),
    variantLabel: variantLabel(mutations),
    variantQuery: opts.variantQuery ?? '',
    ...(opts.loggedIn === false ? {} : { user: opts.user ?? 'tester' }),
    settings: opts.settings ?? defaultSettings,
    ...(opts.error === undefined ? {} : { error: opts.error }),
    ...(opts.next === undefined ? {} : { next: opts.next }),
  }
}

/**
 * Pure: the HTML of one page for one variant. Same options → byte-identical output (no clock, no randomness).
 * The HTML still carries the ground-truth markers (`data-t`), which the page script strips before any tool can
 * look at the live DOM.
 */
export function renderPage(page: SamplePage, opts: RenderPageOptions = {}): string {
  const ctx = renderContext(opts)
  switch (page) {
    case '/login':
      return renderLogin(ctx)
    case '/list':
      return renderList(ctx)
    case '/settings':
      return renderSettings(ctx)
    case '/widgets':
      return renderWidgets(ctx)
    case '/frame':
      return renderFrame(ctx)
    case '/frame-inner':
      return renderFrameInner(ctx)
  }
}
