import { existsSync, mkdirSync, copyFileSync, symlinkSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { installCommand } from '@qa/model'
import { VisionError, isVisionError } from '../errors'
import { pickElementLabel, TRUSTED_LABEL_SCORE } from '../element-label'
import { sha256Hex } from '../image'
import { prepareForOcr, toOriginalBox } from '../ocr-preprocess'
import type { Box, UiElement, VisionAnswer, VisionProvider } from '../types'
import { assertNotAborted, unsupported } from './common'

export interface OcrOptions {
  /** Tesseract languages (default `['eng', 'kor']`); a language with no data installed is skipped. */
  languages?: string[]
  /** A folder with `<lang>.traineddata[.gz]`, searched before the npm and Debian data. */
  tessdataDir?: string
  /** Words below this Tesseract confidence (0–100) are dropped (default 40). */
  minWordConfidence?: number
}

const DEBIAN_DIRS = ['/usr/share/tesseract-ocr/5/tessdata', '/usr/share/tesseract-ocr/4.00/tessdata']

/** Where each language's data is: your folder, then `@tesseract.js-data/<lang>`, then Debian's tesseract-ocr-<lang>. */
export function findTessdata(languages: string[], tessdataDir?: string): Map<string, string> {
  const require = createRequire(import.meta.url)
  const found = new Map<string, string>()
  for (const lang of languages) {
    const candidates: string[] = []
    if (tessdataDir)
      candidates.push(join(tessdataDir, `${lang}.traineddata`), join(tessdataDir, `${lang}.traineddata.gz`))
    try {
      const dir = dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`))
      candidates.push(join(dir, '4.0.0_best_int', `${lang}.traineddata.gz`))
    } catch {
      /* npm data not installed */
    }
    for (const d of DEBIAN_DIRS) candidates.push(join(d, `${lang}.traineddata`))
    const hit = candidates.find((c) => existsSync(c))
    if (hit) found.set(lang, hit)
  }
  return found
}

/** A folder holding `<lang>.traineddata.gz` links to the found files (tesseract.js detects gzip itself). */
function stageTessdata(found: Map<string, string>): string {
  const dir = join(tmpdir(), `qa-vision-tessdata-${sha256Hex(JSON.stringify([...found])).slice(0, 12)}`)
  mkdirSync(dir, { recursive: true })
  for (const [lang, file] of found) {
    const target = join(dir, `${lang}.traineddata.gz`)
    if (existsSync(target)) continue
    try {
      symlinkSync(file, target)
    } catch {
      copyFileSync(file, target)
    }
  }
  return dir
}

interface OcrWord {
  text: string
  confidence: number
  bbox: { x0: number; y0: number; x1: number; y1: number }
}

/** What Tesseract makes of a button's or a field's border: a token of these characters alone ends a label. */
const BORDER = /^[|[\]{}\\]+$/u

/**
 * Words of one Tesseract line grouped into labels: split where the gap is wider than 1.5× the smaller of the two
 * words' heights (two buttons on a row; the smaller height, because a border fragment glued to a word makes its
 * box taller), and at a border Tesseract read as a token of its own ("Ctrl+A | Search"). Words below
 * `minConfidence` and tokens without a letter or digit are dropped. Pure.
 */
export function groupWords(lines: OcrWord[][], minConfidence: number): UiElement[] {
  const out: UiElement[] = []
  for (const line of lines) {
    let group: OcrWord[] = []
    const flush = () => {
      if (!group.length) return
      const x0 = Math.min(...group.map((w) => w.bbox.x0))
      const y0 = Math.min(...group.map((w) => w.bbox.y0))
      const x1 = Math.max(...group.map((w) => w.bbox.x1))
      const y1 = Math.max(...group.map((w) => w.bbox.y1))
      const box: Box = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
      out.push({
        type: 'text',
        text: group.map((w) => w.text.trim()).join(' '),
        boundingBox: box,
        center: { x: Math.round(x0 + box.width / 2), y: Math.round(y0 + box.height / 2) },
        confidence: Math.round(Math.min(...group.map((w) => w.confidence))) / 100,
      })
      group = []
    }
    for (const word of line) {
      const text = word.text.trim()
      if (BORDER.test(text)) flush()
      if (text === '' || word.confidence < minConfidence || !/[\p{L}\p{N}]/u.test(text)) continue
      const prev = group[group.length - 1]
      if (prev) {
        const height = Math.min(prev.bbox.y1 - prev.bbox.y0, word.bbox.y1 - word.bbox.y0)
        if (word.bbox.x0 - prev.bbox.x1 > height * 1.5) flush()
      }
      group.push(word)
    }
    flush()
  }
  return out
}

type TesseractWorker = {
  recognize(
    image: Buffer,
    options?: object,
    output?: object,
  ): Promise<{
    data: { blocks: { paragraphs: { lines: { words: OcrWord[] }[] }[] }[] | null }
  }>
  setParameters(params: Record<string, string>): Promise<unknown>
  terminate(): Promise<unknown>
}

/**
 * Tesseract's "sparse text" page segmentation: a screen is scattered labels, not a page of paragraphs; it keeps
 * the buttons of one row apart and reads labels the default single-block mode merges or drops.
 */
const SPARSE_TEXT = '11'
/** Screens carry no resolution: told one, Tesseract stops guessing it (and printing "Estimating resolution"). */
const SCREEN_DPI = '96'

/** Tesseract (tesseract.js, WebAssembly) reading text and its boxes; fully offline. Answers `screen` and `element`. */
export function ocrProvider(opts: OcrOptions = {}): VisionProvider {
  const languages = opts.languages ?? ['eng', 'kor']
  const minConfidence = opts.minWordConfidence ?? 40
  const model = `tesseract:${languages.join('+')}`
  let pending: Promise<TesseractWorker> | undefined
  const getWorker = () => {
    pending ??= createOcrWorker().catch((error: unknown) => {
      pending = undefined
      throw error
    })
    return pending
  }
  async function createOcrWorker(): Promise<TesseractWorker> {
    const found = findTessdata(languages, opts.tessdataDir)
    if (found.size === 0)
      throw new VisionError('VISION_OCR_DATA_MISSING', `No Tesseract data found for ${languages.join(', ')}.`, {
        hint: `Install it in your project: ${installCommand('ocr')} (or apt-get install tesseract-ocr-eng tesseract-ocr-kor), or set ocr.tessdataDir.`,
        provider: 'ocr',
      })
    let T: { createWorker: (...args: unknown[]) => Promise<TesseractWorker> }
    try {
      T = (await import('tesseract.js')) as unknown as typeof T
    } catch (cause) {
      throw new VisionError('VISION_SDK_MISSING', 'The "ocr" provider needs tesseract.js.', {
        hint: `Install it in your project: ${installCommand('ocr')}, or set QA_VISION=none.`,
        provider: 'ocr',
        cause,
      })
    }
    const langs = [...found.keys()]
    // Local data only: never fetch from a CDN, never write a cache next to the process.
    const worker = await T.createWorker(langs.join('+'), 1, {
      langPath: stageTessdata(found),
      gzip: true,
      cacheMethod: 'none',
    })
    await worker.setParameters({ tessedit_pageseg_mode: SPARSE_TEXT, user_defined_dpi: SCREEN_DPI })
    return worker
  }

  async function read(bytes: Uint8Array): Promise<UiElement[]> {
    const w = await getWorker()
    const input = await prepareForOcr(bytes)
    if (!input.image) return []
    const { data } = await w.recognize(input.image, {}, { blocks: true })
    const lines = (data.blocks ?? []).flatMap((b) =>
      b.paragraphs.flatMap((p) =>
        p.lines.map((l) => l.words.map((word) => ({ ...word, bbox: toOriginalBox(word.bbox, input.region, input) }))),
      ),
    )
    return groupWords(lines, minConfidence)
  }

  /**
   * The verifier's second opinion offline: the text in the expected region of the recorded
   * screen against the text in the same region now. A restyled or rescaled region still reads the same; a
   * wrong key reads otherwise. Regions without text cannot be judged this way (VISION_UNAVAILABLE).
   */
  async function compareTexts(images: { bytes: Uint8Array }[], signal?: AbortSignal): Promise<VisionAnswer> {
    const [a, b] = images
    if (!a || !b)
      throw new VisionError('VISION_BAD_REQUEST', 'The OCR comparison needs two images.', { provider: 'ocr' })
    const started = performance.now()
    const textOf = (els: UiElement[]) =>
      [...els]
        .sort((p, q) => p.boundingBox.y - q.boundingBox.y || p.boundingBox.x - q.boundingBox.x)
        .map((e) => e.text ?? '')
        .join(' ')
        .normalize('NFC')
        .replace(/\s+/g, ' ')
        .trim()
    let expected: string
    let actual: string
    try {
      expected = textOf(await read(a.bytes))
      actual = textOf(await read(b.bytes))
    } catch (error) {
      if (isVisionError(error)) throw error
      throw new VisionError('VISION_UNAVAILABLE', `Tesseract could not read the image: ${String(error)}`, {
        provider: 'ocr',
        cause: error,
        retryable: false,
      })
    }
    assertNotAborted('ocr', signal)
    if (!expected && !actual)
      throw new VisionError('VISION_UNAVAILABLE', 'OCR found no text in either region to compare.', {
        provider: 'ocr',
        retryable: false,
      })
    const similarity = editSimilarity(expected.toLowerCase(), actual.toLowerCase())
    // a region cut through a relaid-out or restyled window reads its words in another order, among fragments of
    // the labels the cut went through ("ss: Seoul … Add" / "ime: ess: Seoul … Add"): the words themselves decide
    const words = sameWords(expected, actual)
    if (similarity < 0.9 && words.found >= SAME_WORDS_MIN && words.found >= SAME_WORDS_RECALL * words.of)
      return {
        provider: 'ocr',
        model,
        data: {
          match: true,
          reason: `OCR reads the same words in both regions (${words.found} of ${words.of}: "${expected.slice(0, 60)}" and "${actual.slice(0, 60)}")`,
          confidence: Math.round((words.found / words.of) * 100) / 100,
        },
        latencyMs: Math.round(performance.now() - started),
      }
    const match = similarity >= 0.9
    return {
      provider: 'ocr',
      model,
      data: {
        match,
        reason: `OCR reads "${expected.slice(0, 60)}" in the recorded region and "${actual.slice(0, 60)}" now (text similarity ${similarity.toFixed(2)})`,
        confidence: Math.round(similarity * 100) / 100,
      },
      latencyMs: Math.round(performance.now() - started),
    }
  }

  return {
    name: 'ocr',
    model,
    async ask(question, callOpts): Promise<VisionAnswer> {
      assertNotAborted('ocr', callOpts?.signal)
      if (question.task === 'compare') return compareTexts(question.images, callOpts?.signal)
      if (question.task !== 'screen' && question.task !== 'element') throw unsupported('ocr', question.task)
      const image = question.images[0]
      if (!image) throw new VisionError('VISION_BAD_REQUEST', 'The OCR question had no image.', { provider: 'ocr' })
      const started = performance.now()
      let elements: UiElement[]
      try {
        elements = await read(image.bytes)
      } catch (error) {
        if (isVisionError(error)) throw error
        throw new VisionError('VISION_UNAVAILABLE', `Tesseract could not read the image: ${String(error)}`, {
          hint: 'Check the image is a valid PNG/JPEG; OCR failures fall back to the next provider.',
          provider: 'ocr',
          cause: error,
          retryable: false,
        })
      }
      assertNotAborted('ocr', callOpts?.signal)
      const latencyMs = Math.round(performance.now() - started)
      const box = (e: UiElement) => ({ ...e.boundingBox })
      const asJson = (e: UiElement) => ({
        type: e.type,
        text: e.text,
        bounding_box: box(e),
        confidence: e.confidence,
      })
      if (question.task === 'screen')
        return { provider: 'ocr', model, data: { elements: elements.map(asJson) }, latencyMs }
      const point = question.point ?? { x: image.width / 2, y: image.height / 2 }
      // only words inside or overlapping the element, scored confidence × plausibility
      const label = pickElementLabel(elements, point.x, point.y)
      const hit = label?.element ?? null
      return {
        provider: 'ocr',
        model,
        data: {
          element: label
            ? {
                ...asJson(label.element),
                confidence: Math.round(label.score * 1000) / 1000,
                ...(label.score < TRUSTED_LABEL_SCORE
                  ? {
                      description: `low-confidence OCR label (${label.score.toFixed(2)} < ${TRUSTED_LABEL_SCORE}): never used alone to click`,
                    }
                  : {}),
              }
            : null,
          nearby_elements: elements.filter((e) => e !== hit).map((e) => e.text),
        },
        latencyMs,
      }
    },
    async close() {
      const p = pending
      pending = undefined
      const w = await p?.catch(() => undefined)
      await w?.terminate()
    },
  }
}

/** 1 − Levenshtein distance / the longer length, over code points. Pure. */
/** Words (3 letters or more) of the recorded region that must be read in the actual one: at least 2, and 80 %. */
const SAME_WORDS_MIN = 2
const SAME_WORDS_RECALL = 0.8

/**
 * How many of `expected`'s words (runs of 3 letters or more, lower case; fragments and digits are not words) are
 * read in `actual`, each at edit similarity ≥ 0.75 to one of its words. Pure.
 */
export function sameWords(expected: string, actual: string): { found: number; of: number } {
  const wordsOf = (t: string) => (t.toLowerCase().match(/\p{L}{3,}/gu) ?? []) as string[]
  const want = wordsOf(expected)
  const have = wordsOf(actual)
  const found = want.filter((w) => have.some((h) => editSimilarity(w, h) >= 0.75)).length
  return { found, of: want.length }
}

export function editSimilarity(a: string, b: string): number {
  const x = Array.from(a)
  const y = Array.from(b)
  if (x.length === 0 && y.length === 0) return 1
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const cur = [i]
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (x[i - 1] === y[j - 1] ? 0 : 1),
      )
    prev = cur
  }
  return 1 - (prev[y.length] as number) / Math.max(x.length, y.length)
}
