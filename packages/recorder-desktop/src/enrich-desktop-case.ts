import { basename, isAbsolute, join, resolve } from 'node:path'
import {
  type Action,
  CURRENT_FORMAT_VERSION,
  type EnrichmentResult,
  type EnrichmentStatus,
  hasSemanticInfo,
  isClickLike,
  mergeEnrichment,
  summarizeEnrichment,
  type TestCase,
} from '@qa/model'
import { MAX_IMAGE_FILE_BYTES, readInputFile } from '@qa/model/node'
import { averageHash } from '@qa/vision'
import { analyzeClick, type ElementAnalyzer } from './semantic-info'

export interface EnrichOptions {
  analyzer: ElementAnalyzer
  /** Folder of the case file (screenshot paths are relative to it). */
  caseDir: string
  /** Another folder to look for screenshots in (by stored path, then by file name). */
  screenshotsDir?: string | null
  onProgress?: (done: number, total: number, action: Action, status: EnrichmentStatus | null) => void
  now?: () => Date
}

export interface EnrichOutcome {
  testCase: TestCase
  result: EnrichmentResult
  /** Per action: why it was skipped or failed. */
  notes: { index: number; status: EnrichmentStatus; reason: string }[]
}

/** Reads the first of the candidate files that exists; null when none does. */
async function readFirst(paths: string[]): Promise<{ path: string; bytes: Uint8Array } | null> {
  for (const p of paths) {
    try {
      return {
        path: p,
        bytes: new Uint8Array(await readInputFile(p, { what: 'screenshot file', maxBytes: MAX_IMAGE_FILE_BYTES })),
      }
    } catch {
      // next candidate
    }
  }
  return null
}

/**
 * TestCaseEnricher for desktop cases: every click-like action without `semantic_info` gets one from its
 * stored screenshot (the before-screenshot when there is one, else the after one, as legacy recorders kept only
 * that); a missing screenshot marks it `skipped`, an analysis that sees nothing `failed`; nothing that exists is
 * changed (enrichment only adds, via `mergeEnrichment`). Other actions are counted in `total_actions` but not touched.
 */
export async function enrichDesktopCase(tc: TestCase, opts: EnrichOptions): Promise<EnrichOutcome> {
  const statuses: (EnrichmentStatus | null)[] = []
  const notes: EnrichOutcome['notes'] = []
  const actions: Action[] = []
  const todo = tc.actions.filter((a) => isClickLike(a) && !hasSemanticInfo(a.semanticInfo)).length
  let done = 0
  for (const [index, action] of tc.actions.entries()) {
    if (!isClickLike(action) || hasSemanticInfo(action.semanticInfo)) {
      actions.push(action)
      statuses.push(null)
      continue
    }
    const stored = action.screenshotBeforePath ?? action.screenshotPath ?? null
    const candidates: string[] = []
    if (stored) {
      if (opts.screenshotsDir)
        candidates.push(resolve(opts.screenshotsDir, stored), join(opts.screenshotsDir, basename(stored)))
      candidates.push(isAbsolute(stored) ? stored : resolve(opts.caseDir, stored))
    }
    const shot = stored ? await readFirst(candidates) : null
    let status: EnrichmentStatus
    let next: Action
    if (!shot) {
      status = 'skipped'
      next = mergeEnrichment(action, { enrichmentStatus: status })
      notes.push({ index, status, reason: stored ? `screenshot ${stored} not found` : 'no screenshot recorded' })
    } else {
      const r = await analyzeClick(opts.analyzer, shot.bytes, action.x, action.y)
      if (r.semanticInfo) {
        status = 'enriched'
        const hash = await averageHash(shot.bytes).catch(() => null)
        next = mergeEnrichment(action, {
          semanticInfo: r.semanticInfo,
          enrichmentStatus: status,
          ...(hash ? (action.screenshotBeforePath ? { uiStateHashBefore: hash } : { uiStateHashAfter: hash }) : {}),
        })
      } else {
        status = 'failed'
        next = mergeEnrichment(action, { enrichmentStatus: status })
        notes.push({ index, status, reason: r.error ?? 'no element seen' })
      }
    }
    actions.push(next)
    statuses.push(status)
    done++
    opts.onProgress?.(done, todo, next, status)
  }
  const result = summarizeEnrichment(statuses, CURRENT_FORMAT_VERSION)
  const enrichedAt = (opts.now ?? (() => new Date()))().toISOString()
  return { testCase: { ...tc, version: CURRENT_FORMAT_VERSION, enrichedAt, actions }, result, notes }
}
