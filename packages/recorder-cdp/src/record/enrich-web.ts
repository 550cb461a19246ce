import { clickSideButton } from '../browser/cdp-side-buttons'
import {
  type Action,
  CURRENT_FORMAT_VERSION,
  type EnrichmentResult,
  isClickLike,
  mergeEnrichment,
  summarizeEnrichment,
  type TestCase,
} from '@qa/model'
import type { Page } from 'playwright-core'
import { gotoOrExplain } from '../browser/browser'
import { type CapturedElement, createCdpIdentityReader } from '../browser/cdp-identity'
import { WebError } from '../errors'
import { settle } from '../browser/settle'
import { planUrls } from '../replay/url-plan'

export interface EnrichWebOptions {
  page: Page
  /** The start URL, exactly as given; later recorded URLs on the recorded origin move onto its origin. */
  url?: string
  /** Every recorded URL on the recorded origin, the start included, moves onto this base. */
  baseUrl?: string
  /** Secrets for password steps (`secret_env`); without one a password step types nothing. */
  env?: Readonly<Record<string, string | undefined>>
  onAction?: (event: { index: number; total: number; status: Action['enrichmentStatus'] }) => void
}

export interface EnrichWebOutcome {
  testCase: TestCase
  result: EnrichmentResult
}

/**
 * TestCaseEnricher for the web: replays a coordinate-only case at its recorded coordinates and,
 * before each click-like or typing step, captures the identity of the element there over CDP. Existing fields
 * are never changed (enrichment only adds); every action gets an `enrichment_status`: `enriched`, `skipped` (nothing to
 * identify, or already identified) or `failed` (no element there).
 */
export async function enrichWebCase(testCase: TestCase, opts: EnrichWebOptions): Promise<EnrichWebOutcome> {
  const { page } = opts
  const urls = planUrls({ recordedStart: testCase.startUrl, url: opts.url, baseUrl: opts.baseUrl })
  const start = urls.start
  if (!start) {
    throw new WebError('WEB_NO_START_URL', `${testCase.name}: the case has no start_url and no --url was given.`, {
      hint: 'Pass the app URL with --url http://host:port/.',
    })
  }
  await gotoOrExplain(page, start)
  await settle(page)
  const reader = await createCdpIdentityReader(page)
  const out: TestCase = { ...structuredClone(testCase), version: CURRENT_FORMAT_VERSION, platform: 'web' }
  if (!out.startUrl) out.startUrl = start
  const total = testCase.actions.length
  try {
    for (const [index, action] of testCase.actions.entries()) {
      const targets = isClickLike(action) || action.actionType === 'type' || action.actionType === 'select'
      let captured: CapturedElement | null = null
      let status: Action['enrichmentStatus'] = 'skipped'
      if (targets && !action.identity) {
        captured =
          action.actionType === 'type' && action.x === 0 && action.y === 0
            ? await reader.focused().catch(() => null)
            : await reader.atPoint(action.x, action.y).catch(() => null)
        status =
          captured && captured.identity.tagName !== 'body' && captured.identity.tagName !== 'html'
            ? 'enriched'
            : 'failed'
      }
      out.actions[index] = mergeEnrichment(action, {
        ...(status === 'enriched' && captured ? { identity: captured.identity, selectors: captured.selectors } : {}),
        ...(status === 'enriched' && captured?.operates ? { operates: captured.operates.identity } : {}),
        enrichmentStatus: status,
      })
      opts.onAction?.({ index, total, status })
      await perform(action)
      await settle(page)
    }
  } finally {
    await reader.detach()
  }
  out.enrichedAt = new Date().toISOString()
  const result = summarizeEnrichment(
    out.actions.map((a) => a.enrichmentStatus),
    CURRENT_FORMAT_VERSION,
  )
  return { testCase: out, result }

  async function perform(action: Action): Promise<void> {
    switch (action.actionType) {
      case 'click':
      case 'double_click':
      case 'right_click':
        if (action.button === 'back' || action.button === 'forward') {
          await clickSideButton(page, action.x, action.y, action.button, action.modifiers ?? [])
          return
        }
        await page.mouse.click(action.x, action.y, {
          button: action.actionType === 'right_click' ? 'right' : (action.button ?? 'left'),
          clickCount: action.actionType === 'double_click' ? 2 : 1,
        })
        return
      case 'type': {
        const text = action.secretEnv ? (opts.env?.[action.secretEnv] ?? '') : (action.text ?? '')
        if (!(action.x === 0 && action.y === 0)) await page.mouse.click(action.x, action.y)
        await page.keyboard.type(text)
        return
      }
      case 'key_press':
        if (action.key) await page.keyboard.press(action.key)
        return
      case 'scroll':
        await page.mouse.move(action.x, action.y)
        await page.mouse.wheel(action.scrollDx ?? 0, action.scrollDy ?? 0)
        return
      case 'navigate':
        if (action.url) await gotoOrExplain(page, urls.rebase(action.url))
        return
      case 'wait':
        await page.waitForTimeout(Math.min(action.durationMs ?? 0, 10_000))
        return
      default:
        return
    }
  }
}
