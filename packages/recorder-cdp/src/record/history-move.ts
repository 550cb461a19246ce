import type { Page } from 'playwright-core'

/**
 * Back and forward (the browser's buttons, Alt+Left, a mouse's side buttons): no page event tells them. Each new
 * document says how it was reached (the Navigation API's `navigation.activation`, read in the recorder's world of
 * that very document, so a person who has already gone on cannot make the answer another page's); where the
 * document cannot say the direction (it came from another site), the session history is compared.
 */

export type HistoryMove = 'back' | 'forward'

/** How a document was reached, as the document itself tells (`navigationActivationInPage`). */
export interface DocumentActivation {
  /** `push`, `replace`, `reload` or `traverse` (back or forward). */
  type: string
  /** The index of the entry the document was reached from, when that entry is of the same site. */
  fromIndex: number | null
  /** The document's own entry's index. */
  toIndex: number | null
  /** The document's URL. */
  url?: string
}

/**
 * Page function: how the document it runs in was reached (null where the browser has no Navigation API). Run in an
 * isolated world: the page's scripts cannot change what it reads there.
 */
export function navigationActivationInPage(): DocumentActivation | null {
  const activation = (globalThis as { navigation?: { activation?: unknown } }).navigation?.activation as
    | { navigationType: string; from: { index: number } | null; entry: { index: number } | null }
    | null
    | undefined
  if (!activation) return null
  return {
    type: activation.navigationType,
    fromIndex: activation.from?.index ?? null,
    toIndex: activation.entry?.index ?? null,
    url: location.href,
  }
}

/**
 * The move a document's activation tells: back or forward; `unknown` for a traverse whose direction it cannot say
 * (the entry it came from is of another site, or an index is missing); null for anything else (a new page, a
 * reload, a replaced entry).
 */
export function activationMove(activation: DocumentActivation): HistoryMove | 'unknown' | null {
  if (activation.type !== 'traverse') return null
  const { fromIndex, toIndex } = activation
  if (fromIndex === null || toIndex === null || fromIndex === toIndex) return 'unknown'
  return toIndex < fromIndex ? 'back' : 'forward'
}

/** Where a page is in its session history: the current entry's index, and the ids of every entry. */
export interface HistoryPosition {
  index: number
  ids: number[]
}

/**
 * Whether the page went back or forward between two positions of its history: the current entry is one the
 * history already had, at another index. A new navigation adds an entry (a new id); a reload keeps the index.
 */
export function historyMove(before: HistoryPosition, after: HistoryPosition): HistoryMove | null {
  const id = after.ids[after.index]
  if (id === undefined || !before.ids.includes(id) || after.index === before.index) return null
  return after.index < before.index ? 'back' : 'forward'
}

/** The page's session history now (null when it cannot be read: the page is closing). */
export async function historyOf(page: Page): Promise<HistoryPosition | null> {
  const session = await page
    .context()
    .newCDPSession(page)
    .catch(() => null)
  if (!session) return null
  try {
    const { currentIndex, entries } = await session.send('Page.getNavigationHistory')
    return { index: currentIndex, ids: entries.map((e) => e.id) }
  } catch {
    return null
  } finally {
    await session.detach().catch(() => undefined)
  }
}
