import { isAbsolute, resolve } from 'node:path'
import type { BoundingBox as Rect, ReplayReport, VerificationResult } from '@qa/model'
import pLimit from 'p-limit'
import { assertImagePixels, MAX_IMAGE_PIXELS, readImageFile } from '../decode-screenshot'
import { loadSharp } from '../internal/lazy-sharp'
import { escapeXml as escapeHtml } from './junit-report'
import {
  acceptable,
  acceptCommand,
  assertionOf,
  attemptLabel,
  durationLabel,
  healingLabel,
  healLine,
  healOf,
  percent,
  regionLabel,
  replayResultFor,
  screenSizeLabel,
  stepOf,
  VERDICT_LABEL,
  wasCompared,
} from './report-helpers'

export interface HtmlReportOptions {
  /** Folder the screenshot paths in the report are relative to. Default: the current folder. */
  baseDir?: string
  /** Width of the embedded thumbnails in pixels. Default 480. */
  thumbnailWidth?: number
  /** How many steps' thumbnails are made at once (each step makes its up to four in parallel). Default 4. */
  stepsAtOnce?: number
  /**
   * The report's JSON file (written beside the HTML): each failed or healed step then shows the command that
   * accepts it, `qa accept <this path> --steps N`. Without it no command is shown.
   */
  reportJsonPath?: string | null
  /**
   * Embed only images inside this folder (symlinks resolved): a report read from disk may name any path (`../`,
   * absolute), and `qa report` embeds only what lies in the report's folder. Default: any image the report names.
   */
  imageRoot?: string
  /** Told about each image that is not embedded (refused, missing, not an image), with the reason. */
  onImageNotEmbedded?: (path: string, reason: string) => void
}

/** Where a report's images are read from: the folder relative paths start at, and the folder they must lie in. */
interface ImageSource {
  baseDir: string
  root?: string
  onNotEmbedded?: (path: string, reason: string) => void
}

const CSS = `
:root{--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--heal:#8250df;--skip:#6e7781;--muted:#57606a}
*{box-sizing:border-box}
body{margin:0;padding:24px;font:15px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans CJK KR","Noto Sans KR","Apple SD Gothic Neo","Malgun Gothic","Noto Sans",sans-serif;color:#1f2328;background:#f6f8fa}
h1{font-size:22px;margin:0 0 4px}
.meta{color:var(--muted);margin:0 0 16px}
.screen-size-change{background:#fff4e5;border-left:4px solid #ef6c00;padding:8px 12px}
.first-cause{background:#ffebe9;border:1px solid #ff8182;border-left:6px solid var(--fail);border-radius:8px;padding:10px 16px;margin:0 0 16px}
.first-cause a{color:inherit;font-weight:700}
.summary{display:flex;gap:12px;flex-wrap:wrap;margin-bottom:16px}
.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:10px 16px}
.card b{display:block;font-size:20px}
.result-pass{color:var(--pass)}.result-fail{color:var(--fail)}
.filter-input{position:absolute;opacity:0;pointer-events:none}
.filters{display:flex;gap:8px;flex-wrap:wrap;margin:0 0 16px}
.filters label{cursor:pointer;background:#fff;border:1px solid #d0d7de;border-radius:16px;padding:2px 12px;font-size:14px;user-select:none}
#f-all:checked~.filters label[for=f-all],#f-fail:checked~.filters label[for=f-fail],#f-healed:checked~.filters label[for=f-healed],#f-warning:checked~.filters label[for=f-warning],#f-pass:checked~.filters label[for=f-pass],#f-notrun:checked~.filters label[for=f-notrun]{background:#0969da;border-color:#0969da;color:#fff}
#f-fail:checked~.steps .step:not([data-verdict=fail]),#f-healed:checked~.steps .step:not([data-healed=true]),#f-warning:checked~.steps .step:not([data-verdict=warning]),#f-pass:checked~.steps .step:not([data-verdict=pass]),#f-notrun:checked~.steps .step:not([data-not-run=true]){display:none}
.step{background:#fff;border:1px solid #d0d7de;border-left:6px solid #d0d7de;border-radius:8px;padding:12px 16px;margin:0 0 16px}
.step.verdict-pass{border-left-color:var(--pass)}.step.verdict-fail{border-left-color:var(--fail)}.step.verdict-warning{border-left-color:var(--warn)}.step.not-run{border-left-color:var(--skip);opacity:.8}
.step h2{font-size:16px;margin:0 0 8px}
.step h2 .duration{float:right;font-weight:400;color:var(--muted);font-size:13px}
.badge{display:inline-block;font-size:12px;font-weight:700;padding:1px 8px;border-radius:10px;color:#fff;margin-right:6px;vertical-align:1px}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.warning{background:var(--warn)}.badge.healed{background:var(--heal)}.badge.not-run{background:var(--skip)}.badge.first-cause{background:#fff;color:var(--fail);border:1px solid var(--fail)}
.after-cause{color:var(--muted);font-size:13px;margin:-4px 0 8px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 10px}
dt{color:var(--muted)}dd{margin:0}
dd.heal{color:var(--heal);font-weight:600}
ol.tried{margin:0;padding-left:20px;font-size:13px}
code.accept{display:inline-block;background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:1px 6px;font:13px ui-monospace,SFMono-Regular,Menlo,monospace;user-select:all}
.shots{display:flex;gap:12px;flex-wrap:wrap;align-items:flex-start}
figure{margin:0}figcaption{color:var(--muted);font-size:13px}
figure img{display:block;max-width:100%;border:1px solid #d0d7de;border-radius:4px;background:#fff}
figure.element img{max-width:240px;max-height:160px;border:2px solid var(--heal)}
.assertion dd.assertion-expected,.assertion dd.assertion-actual{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap}
.verdict-fail dd.assertion-actual{color:var(--fail);font-weight:600}
.overlaid{position:relative;display:inline-block}.overlaid svg{position:absolute;inset:0;width:100%;height:100%;pointer-events:none}
.overlaid rect.animated{fill:none;stroke:#bf8700;stroke-width:2;stroke-dasharray:6 3}
.missing{width:240px;height:135px;display:flex;align-items:center;justify-content:center;border:1px dashed #d0d7de;color:var(--muted);font-size:13px;text-align:center;padding:8px}
`

type Src = string | { missing: string }

async function thumbnail(
  path: string | null | undefined,
  images: ImageSource,
  width: number,
  format: 'jpeg' | 'png',
  /** Filled with the image's own size (before the thumbnail scaled it), when asked for. */
  size?: { width: number; height: number },
): Promise<Src> {
  if (!path) return { missing: 'none recorded' }
  const file = isAbsolute(path) ? path : resolve(images.baseDir, path)
  try {
    const bytes = await readImageFile(
      file,
      images.root === undefined ? {} : { root: images.root, rootLabel: "the report's folder" },
    )
    await assertImagePixels(bytes, file)
    const sharp = await loadSharp()
    let img = sharp(bytes, { failOn: 'none', limitInputPixels: MAX_IMAGE_PIXELS })
    if (size) {
      const meta = await img.metadata()
      size.width = meta.width ?? 0
      size.height = meta.height ?? 0
    }
    img = img.resize({ width, withoutEnlargement: true })
    const out =
      format === 'png'
        ? await img.png({ compressionLevel: 9, palette: true }).toBuffer()
        : await img.jpeg({ quality: 80 }).toBuffer()
    return `data:image/${format};base64,${out.toString('base64')}`
  } catch (e) {
    const reason = e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e)
    images.onNotEmbedded?.(path, reason)
    return { missing: `not available (${escapeHtml(path)}: ${escapeHtml(reason)})` }
  }
}

function figure(
  kind: string,
  caption: string,
  step: number,
  src: Src,
  outline?: { boxes: readonly Rect[]; width: number; height: number },
): string {
  if (typeof src !== 'string')
    return `<figure class="${kind}"><div class="missing">${src.missing}</div><figcaption>${escapeHtml(caption)}</figcaption></figure>`
  const img = `<img class="${kind}-image" alt="${kind} screenshot of step ${step}" src="${src}">`
  if (!outline?.boxes.length || !(outline.width > 0 && outline.height > 0))
    return `<figure class="${kind}">${img}<figcaption>${escapeHtml(caption)}</figcaption></figure>`
  // the screenshot's own pixels as the drawing's units: the outlines scale with the thumbnail
  const rects = outline.boxes
    .map(
      (b) =>
        `<rect class="animated" x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" vector-effect="non-scaling-stroke"><title>animated ${b.width}×${b.height} at (${b.x}, ${b.y}): not compared</title></rect>`,
    )
    .join('')
  return `<figure class="${kind}"><div class="overlaid">${img}<svg viewBox="0 0 ${outline.width} ${outline.height}" preserveAspectRatio="none" aria-hidden="true">${rects}</svg></div><figcaption>${escapeHtml(caption)}; dashed: animated, not compared</figcaption></figure>`
}

/** The step's animated regions (recorded-screen boxes the verdict did not compare), from its details. */
function animatedRegionsOf(v: VerificationResult): Rect[] {
  const list = v.details?.animated_regions
  if (!Array.isArray(list)) return []
  const out: Rect[] = []
  for (const b of list) {
    if (!b || typeof b !== 'object' || Array.isArray(b)) continue
    const { x, y, width, height } = b
    if ([x, y, width, height].every((n) => typeof n === 'number' && Number.isFinite(n)))
      out.push({ x: x as number, y: y as number, width: width as number, height: height as number })
  }
  return out
}

const row = (label: string, cls: string, html: string) => `<dt>${label}</dt><dd class="${cls}">${html}</dd>`

async function stepHtml(
  report: ReplayReport,
  v: VerificationResult,
  i: number,
  images: ImageSource,
  width: number,
  reportJsonPath: string | null,
): Promise<string> {
  const r = replayResultFor(report, v, i)
  const step = stepOf(v)
  const heal = healOf(r)
  const notRun = v.notRun === true
  const compared = wasCompared(v, r)
  const failedToRun = !notRun && !!r && !r.success
  const animated = animatedRegionsOf(v)
  const expectedSize = { width: 0, height: 0 }
  const [expected, actual, diff, element] = await Promise.all([
    thumbnail(v.expectedScreenshot, images, width, 'jpeg', animated.length ? expectedSize : undefined),
    notRun ? Promise.resolve(null) : thumbnail(v.actualScreenshot, images, width, 'jpeg'),
    v.diffScreenshot ? thumbnail(v.diffScreenshot, images, width, 'png') : Promise.resolve(null),
    // the crop the replay cut before the step's input: the screen after it may be another page
    r?.foundCrop && !notRun ? thumbnail(r.foundCrop, images, 240, 'png') : Promise.resolve(null),
  ])
  const duration = durationLabel((r?.durationMs ?? 0) + (v.durationMs ?? 0) || (r?.durationMs ?? v.durationMs))
  const assertion = assertionOf(v)
  const region = regionLabel(v)
  const badges = [
    `<span class="badge ${notRun ? 'not-run' : v.finalResult}">${notRun ? 'NOT RUN' : VERDICT_LABEL[v.finalResult]}</span>`,
    heal ? '<span class="badge healed">HEALED</span>' : '',
    v.firstCause ? '<span class="badge first-cause">FIRST CAUSE</span>' : '',
  ].join('')
  const after =
    v.afterFirstCause && !notRun && v.finalResult !== 'pass'
      ? `<p class="after-cause">Ran after step <a href="#step-${v.afterFirstCause}">${v.afterFirstCause}</a> failed (the first cause): this failure may follow from it.</p>`
      : ''
  const vision = v.visionVerified ? (v.visionMatch ? 'asked: equivalent' : 'asked: different') : null
  // a step not located says so in its reason and its list of strategies tried
  const located = r && !notRun && r.success ? healingLabel(r) : undefined
  const rows = [
    assertion ? row('Expected', 'assertion-expected', escapeHtml(assertion.expected)) : '',
    assertion ? row('Actual', 'assertion-actual', escapeHtml(assertion.actual)) : '',
    !assertion && compared ? row('Similarity', 'similarity', percent(v.screenshotSimilarity)) : '',
    !assertion && compared && region ? row('Expected region', 'region-similarity', escapeHtml(region)) : '',
    !assertion && animated.length
      ? row(
          'Animated',
          'animated',
          escapeHtml(
            `${animated.map((b) => `${b.width}×${b.height} at (${b.x}, ${b.y})`).join(', ')}: moved by itself while recorded, not compared`,
          ),
        )
      : '',
    row('Verdict', 'verdict', notRun ? 'not run' : v.finalResult),
    row('Reason', 'reason', escapeHtml(v.reason ?? '')),
    heal ? row('Healed', 'heal', escapeHtml(healLine(heal))) : '',
    heal && heal.triedFirst.length > 0
      ? row(
          'Tried first',
          'tried',
          `<ol class="tried">${heal.triedFirst.map((a) => `<li>${escapeHtml(attemptLabel(a))}</li>`).join('')}</ol>`,
        )
      : '',
    located ? row('Located by', 'healing', escapeHtml(located)) : '',
    failedToRun && r?.strategiesTried?.length
      ? row(
          'Tried',
          'tried',
          `<ol class="tried">${r.strategiesTried
            .filter((a) => a.outcome !== 'skipped')
            .map((a) => `<li>${escapeHtml(attemptLabel(a))}</li>`)
            .join('')}</ol>`,
        )
      : '',
    vision ? row('Vision', 'vision', vision) : '',
    reportJsonPath && acceptable(v, r, report.acceptance ?? null)
      ? row('Accept', 'accept', `<code class="accept">${escapeHtml(acceptCommand(reportJsonPath, step))}</code>`)
      : '',
  ].join('')
  const actualCaption = failedToRun ? 'Actual (the page when the step failed)' : 'Actual'
  const shots = assertion
    ? ''
    : `<div class="shots">${figure('expected', 'Expected (recorded)', step, expected, { boxes: animated, ...expectedSize })}${
        actual ? figure('actual', actualCaption, step, actual) : ''
      }${diff ? figure('diff', 'Diff', step, diff) : ''}${element ? figure('element', 'Element found', step, element) : ''}</div>`
  const classes = `step verdict-${v.finalResult}${assertion ? ' assertion' : ''}${notRun ? ' not-run' : ''}`
  return `<section class="${classes}" id="step-${step}" data-step="${step}" data-action-index="${v.actionIndex}" data-verdict="${v.finalResult}"${heal ? ' data-healed="true"' : ''}${notRun ? ' data-not-run="true"' : ''}${v.firstCause ? ' data-first-cause="true"' : ''}>
<h2>${badges}Step ${step} · ${escapeHtml(v.actionDescription)}${duration && !notRun ? `<span class="duration">${duration}</span>` : ''}</h2>
${after}<dl>
${rows}
</dl>
${shots}</section>`
}

/** The screen-size change of a desktop replay, as a paragraph (empty when the size did not change). */
function screenSizeChangeHtml(report: ReplayReport): string {
  const c = report.screenSizeChange
  if (!c) return ''
  return `<p class="screen-size-change" id="screen-size-change" data-recorded="${c.recorded.width}x${c.recorded.height}" data-replayed="${c.replayed.width}x${c.replayed.height}"><b>Screen size changed:</b> ${escapeHtml(screenSizeLabel(c))}</p>\n`
}

/** The first failed step, named before the steps: the one a reviewer reads first. */
function firstCauseHtml(report: ReplayReport): string {
  const c = report.firstCause
  if (!c) return ''
  const later = report.verificationResults.filter((v) => v.afterFirstCause && v.finalResult === 'fail' && !v.notRun)
  const notRun = report.notRunCount ?? report.verificationResults.filter((v) => v.notRun).length
  const tail = [
    later.length ? `${later.length} later failure${later.length === 1 ? '' : 's'} came after it` : '',
    notRun ? `${notRun} step${notRun === 1 ? '' : 's'} not run (--max-failures ${report.maxFailures ?? ''})` : '',
  ]
    .filter(Boolean)
    .join('; ')
  return `<p class="first-cause" id="first-cause" data-step="${c.step}"><b>First cause:</b> <a href="#step-${c.step}">step ${c.step} · ${escapeHtml(c.description)}</a> — ${escapeHtml(c.reason)}${tail ? ` <span class="later">(${escapeHtml(tail)})</span>` : ''}</p>\n`
}

const FILTERS: [id: string, label: string][] = [
  ['all', 'All'],
  ['fail', 'Failed'],
  ['healed', 'Healed'],
  ['warning', 'Warnings'],
  ['pass', 'Passed'],
  ['notrun', 'Not run'],
]

/**
 * A self-contained HTML file (no server, no script, no external resources): summary, the first cause, a filter by
 * status (radio buttons and CSS only), then per step its verdict, duration, reason, how it was located (for a
 * heal: recorded name → found name, the strategy, the strategies tried first), the expected / actual / diff
 * screenshots and a crop of the element found (embedded as data URIs), and for a failed or healed step the command
 * that accepts it. Every string from the case or the page is HTML-escaped.
 */
export async function renderHtmlReport(report: ReplayReport, opts: HtmlReportOptions = {}): Promise<string> {
  const images: ImageSource = {
    baseDir: opts.baseDir ?? process.cwd(),
    ...(opts.imageRoot !== undefined ? { root: opts.imageRoot } : {}),
    ...(opts.onImageNotEmbedded ? { onNotEmbedded: opts.onImageNotEmbedded } : {}),
  }
  const width = opts.thumbnailWidth ?? 480
  const passed = report.passed ?? report.failedCount === 0
  let healed = 0
  report.verificationResults.forEach((v, i) => {
    if (healOf(replayResultFor(report, v, i))) healed++
  })
  // the steps' images are decoded and scaled by sharp's threads: a few steps at a time keep them busy, in order
  const limit = pLimit(Math.max(1, Math.floor(opts.stepsAtOnce ?? 4)))
  const steps = await Promise.all(
    report.verificationResults.map((v, i) =>
      limit(() => stepHtml(report, v, i, images, width, opts.reportJsonPath ?? null)),
    ),
  )
  const notRun = report.verificationResults.filter((v) => v.notRun).length
  const card = (label: string, value: string, cls = '') => `<div class="card ${cls}">${label}<b>${value}</b></div>`
  const counts: Record<string, number> = {
    all: report.verificationResults.length,
    fail: report.failedCount,
    healed,
    warning: report.warningCount,
    pass: report.passedCount,
    notrun: notRun,
  }
  const filters = FILTERS.map(([id, label]) => `<label for="f-${id}">${label} (${counts[id] ?? 0})</label>`).join('')
  const radios = FILTERS.map(
    ([id]) =>
      `<input class="filter-input" type="radio" name="filter" id="f-${id}" value="${id}"${id === 'all' ? ' checked' : ''}>`,
  ).join('')
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
${card('Steps', String(report.totalActions))}
${card('Passed', String(report.passedCount))}
${card('Failed', String(report.failedCount))}
${card('Warnings', String(report.warningCount))}
${healed ? card('Healed', String(healed)) : ''}
${notRun ? card('Not run', String(notRun)) : ''}
${card('Success rate', percent(report.successRate, 1))}
</div>
<p class="summary-text">${escapeHtml(report.summary)}</p>
${firstCauseHtml(report)}${screenSizeChangeHtml(report)}${radios}
<div class="filters" id="filters">${filters}</div>
<div class="steps">
${steps.join('\n')}
</div>
</body>
</html>
`
}
