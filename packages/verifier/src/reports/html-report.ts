import { isAbsolute, resolve } from 'node:path'
import type { ReplayReport, VerificationResult } from '@qa/model'
import { readImageFile } from '../decode-screenshot'
import { loadSharp } from '../internal/lazy-sharp'
import { escapeXml as escapeHtml } from './junit-report'
import {
  assertionOf,
  healingLabel,
  percent,
  regionLabel,
  replayResultFor,
  screenSizeLabel,
  VERDICT_LABEL,
} from './report-helpers'

export interface HtmlReportOptions {
  /** Folder the screenshot paths in the report are relative to. Default: the current folder. */
  baseDir?: string
  /** Width of the embedded thumbnails in pixels. Default 480. */
  thumbnailWidth?: number
}

const CSS = `
:root{--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--muted:#57606a}
*{box-sizing:border-box}
body{margin:0;padding:24px;font:15px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans CJK KR","Noto Sans KR","Apple SD Gothic Neo","Malgun Gothic","Noto Sans",sans-serif;color:#1f2328;background:#f6f8fa}
h1{font-size:22px;margin:0 0 4px}
.meta{color:var(--muted);margin:0 0 16px}
.screen-size-change{background:#fff4e5;border-left:4px solid #ef6c00;padding:8px 12px}\n.summary{display:flex;gap:12px;flex-wrap:wrap;margin-bottom:20px}
.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:10px 16px}
.card b{display:block;font-size:20px}
.result-pass{color:var(--pass)}.result-fail{color:var(--fail)}
.step{background:#fff;border:1px solid #d0d7de;border-left:6px solid #d0d7de;border-radius:8px;padding:12px 16px;margin:0 0 16px}
.step.verdict-pass{border-left-color:var(--pass)}.step.verdict-fail{border-left-color:var(--fail)}.step.verdict-warning{border-left-color:var(--warn)}
.step h2{font-size:16px;margin:0 0 8px}
.badge{display:inline-block;font-size:12px;font-weight:700;padding:1px 8px;border-radius:10px;color:#fff;margin-right:6px}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.warning{background:var(--warn)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 10px}
dt{color:var(--muted)}dd{margin:0}
.shots{display:flex;gap:12px;flex-wrap:wrap}
figure{margin:0}figcaption{color:var(--muted);font-size:13px}
figure img{display:block;max-width:100%;border:1px solid #d0d7de;border-radius:4px;background:#fff}
.assertion dd.assertion-expected,.assertion dd.assertion-actual{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap}
.verdict-fail dd.assertion-actual{color:var(--fail);font-weight:600}
.missing{width:240px;height:135px;display:flex;align-items:center;justify-content:center;border:1px dashed #d0d7de;color:var(--muted);font-size:13px;text-align:center;padding:8px}
`

async function thumbnail(
  path: string | null | undefined,
  baseDir: string,
  width: number,
  format: 'jpeg' | 'png',
): Promise<string | { missing: string }> {
  if (!path) return { missing: 'none recorded' }
  const file = isAbsolute(path) ? path : resolve(baseDir, path)
  try {
    const bytes = await readImageFile(file)
    const sharp = await loadSharp()
    const img = sharp(bytes, { failOn: 'none' }).resize({ width, withoutEnlargement: true })
    const out =
      format === 'png'
        ? await img.png({ compressionLevel: 9, palette: true }).toBuffer()
        : await img.jpeg({ quality: 80 }).toBuffer()
    return `data:image/${format};base64,${out.toString('base64')}`
  } catch (e) {
    return {
      missing: `not available (${escapeHtml(path)}: ${escapeHtml(e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e))})`,
    }
  }
}

function figure(kind: string, step: number, src: string | { missing: string }): string {
  const caption = kind[0]?.toUpperCase() + kind.slice(1)
  if (typeof src !== 'string')
    return `<figure class="${kind}"><div class="missing">${src.missing}</div><figcaption>${caption}</figcaption></figure>`
  return `<figure class="${kind}"><img class="${kind}-image" alt="${kind} screenshot of step ${step}" src="${src}"><figcaption>${caption}</figcaption></figure>`
}

async function stepHtml(
  report: ReplayReport,
  v: VerificationResult,
  i: number,
  baseDir: string,
  width: number,
): Promise<string> {
  const [expected, actual, diff] = await Promise.all([
    thumbnail(v.expectedScreenshot, baseDir, width, 'jpeg'),
    thumbnail(v.actualScreenshot, baseDir, width, 'jpeg'),
    v.diffScreenshot ? thumbnail(v.diffScreenshot, baseDir, width, 'png') : Promise.resolve(null),
  ])
  const healing = healingLabel(replayResultFor(report, v, i))
  const vision = v.visionVerified ? (v.visionMatch ? 'asked: equivalent' : 'asked: different') : 'not asked'
  const assertion = assertionOf(v)
  const region = regionLabel(v)
  if (assertion) {
    // an assert step: its verdict is the condition; there is no screenshot to compare
    return `<section class="step verdict-${v.finalResult} assertion" id="step-${v.actionIndex}" data-step="${v.actionIndex}" data-verdict="${v.finalResult}">
<h2><span class="badge ${v.finalResult}">${VERDICT_LABEL[v.finalResult]}</span>#${v.actionIndex} ${escapeHtml(v.actionDescription)}</h2>
<dl>
<dt>Expected</dt><dd class="assertion-expected">${escapeHtml(assertion.expected)}</dd>
<dt>Actual</dt><dd class="assertion-actual">${escapeHtml(assertion.actual)}</dd>
<dt>Verdict</dt><dd class="verdict">${v.finalResult}</dd>
<dt>Reason</dt><dd class="reason">${escapeHtml(v.reason ?? '')}</dd>
${healing ? `<dt>Located by</dt><dd class="healing">${escapeHtml(healing)}</dd>` : ''}
</dl>
</section>`
  }
  return `<section class="step verdict-${v.finalResult}" id="step-${v.actionIndex}" data-step="${v.actionIndex}" data-verdict="${v.finalResult}">
<h2><span class="badge ${v.finalResult}">${VERDICT_LABEL[v.finalResult]}</span>#${v.actionIndex} ${escapeHtml(v.actionDescription)}</h2>
<dl>
<dt>Similarity</dt><dd class="similarity">${percent(v.screenshotSimilarity)}</dd>
${region ? `<dt>Expected region</dt><dd class="region-similarity">${escapeHtml(region)}</dd>` : ''}
<dt>Verdict</dt><dd class="verdict">${v.finalResult}</dd>
<dt>Reason</dt><dd class="reason">${escapeHtml(v.reason ?? '')}</dd>
<dt>Vision</dt><dd class="vision">${vision}</dd>
${healing ? `<dt>Located by</dt><dd class="healing">${escapeHtml(healing)}</dd>` : ''}
</dl>
<div class="shots">${figure('expected', v.actionIndex, expected)}${figure('actual', v.actionIndex, actual)}${diff ? figure('diff', v.actionIndex, diff) : ''}</div>
</section>`
}

/** The screen-size change of a desktop replay, as a paragraph (empty when the size did not change). */
function screenSizeChangeHtml(report: ReplayReport): string {
  const c = report.screenSizeChange
  if (!c) return ''
  return `<p class="screen-size-change" id="screen-size-change" data-recorded="${c.recorded.width}x${c.recorded.height}" data-replayed="${c.replayed.width}x${c.replayed.height}"><b>Screen size changed:</b> ${escapeHtml(screenSizeLabel(c))}</p>\n`
}

/**
 * A self-contained HTML file (no server, no external resources): summary, then per step the expected / actual / diff
 * thumbnails (embedded as data URIs), similarity, verdict, reason and healing method.
 */
export async function renderHtmlReport(report: ReplayReport, opts: HtmlReportOptions = {}): Promise<string> {
  const baseDir = opts.baseDir ?? process.cwd()
  const width = opts.thumbnailWidth ?? 480
  const passed = report.passed ?? report.failedCount === 0
  const steps: string[] = []
  for (let i = 0; i < report.verificationResults.length; i++) {
    steps.push(await stepHtml(report, report.verificationResults[i] as VerificationResult, i, baseDir, width))
  }
  const card = (label: string, value: string, cls = '') => `<div class="card ${cls}">${label}<b>${value}</b></div>`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Replay report — ${escapeHtml(report.testCaseName)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${escapeHtml(report.testCaseName)}</h1>
<p class="meta">Session ${escapeHtml(report.sessionId)} · ${escapeHtml(report.startTime)} → ${escapeHtml(report.endTime)}</p>
<div class="summary" id="summary" data-passed="${passed}">
${card('Result', passed ? 'PASSED' : 'FAILED', passed ? 'result-pass' : 'result-fail')}
${card('Actions', String(report.totalActions))}
${card('Passed', String(report.passedCount))}
${card('Failed', String(report.failedCount))}
${card('Warnings', String(report.warningCount))}
${card('Success rate', percent(report.successRate, 1))}
</div>
<p class="summary-text">${escapeHtml(report.summary)}</p>
${screenSizeChangeHtml(report)}${steps.join('\n')}
</body>
</html>
`
}
