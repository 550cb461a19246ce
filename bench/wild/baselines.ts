/**
 * The baselines of the wild bench, shared with bench/upgrades: how a Selenium-IDE-style and a
 * Playwright-codegen-style recording find a recorded element again, and a Similo-style scorer (the best-scoring
 * interactive element by the matcher's Similo-weighted similarity, always picked: no threshold, no cascade).
 */
import type { Locator, Page } from 'playwright-core'
import { scoreCandidate } from '@qa/matcher'
import { playwrightCandidateSource } from '@qa/recorder-cdp'

export type Finder = (page: Page, act: Record<string, unknown>) => Promise<Locator | null>
export const firstMatching: Finder = async (page, act) => {
  const id = act.identity as Record<string, unknown> | undefined
  const sel = act.selectors as Record<string, unknown> | undefined
  const tries: string[] = []
  if (id?.id) tries.push(`css=#${cssEscape(String(id.id))}`)
  if (sel?.css) tries.push(`css=${sel.css}`)
  if (sel?.xpath) tries.push(`xpath=${sel.xpath}`)
  for (const t of tries) {
    const l = page.locator(t)
    if ((await l.count().catch(() => 0)) > 0) return l.first()
  }
  return null
}
export const codegenChain: Finder = async (page, act) => {
  const id = act.identity as Record<string, unknown> | undefined
  const sel = act.selectors as Record<string, unknown> | undefined
  const tries: Locator[] = []
  if (id?.data_test_id) tries.push(page.getByTestId(String(id.data_test_id)))
  if (id?.ax_role && id.ax_name)
    tries.push(
      page.getByRole(String(id.ax_role) as Parameters<Page['getByRole']>[0], { name: String(id.ax_name), exact: true }),
    )
  const text = String(id?.text_content ?? '').trim()
  if (text && text.length < 60) tries.push(page.getByText(text, { exact: true }))
  if (sel?.css) tries.push(page.locator(`css=${sel.css}`))
  for (const l of tries) {
    if ((await l.count().catch(() => 0)) === 1) return l
  }
  return null
}

/**
 * Similo-style: every interactive element of the page scored against the recorded identity (the loaded case's
 * camel-case `identity`) with the Similo weights; the best one wins, whatever its score.
 */
export async function similoPick(page: Page, identity: unknown): Promise<Locator | null> {
  if (!identity) return null
  const source = playwrightCandidateSource(page)
  const all = await source.listCandidates()
  let best: { score: number; handle: Locator } | null = null
  for (const c of all) {
    if (c.visible === false) continue
    const score = scoreCandidate(identity as Parameters<typeof scoreCandidate>[0], c).score
    if (!best || score > best.score) best = { score, handle: c.handle as Locator }
  }
  return best?.handle ?? null
}

/** CSS.escape for Node: ids with odd characters are escaped. */
export const cssEscape = (s: string) => s.replace(/([^\w-])/g, '\\$1')
