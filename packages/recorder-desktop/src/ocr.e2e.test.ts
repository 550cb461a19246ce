import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createUIAnalyzer, findTessdata, ocrProvider } from '@qa/vision'
import {
  describeVisionProvider,
  renderTextPng,
  STUB_AWS_CREDENTIALS,
  startBedrockStub,
  type TextLabel,
} from '@qa/vision/testing'
import { closeNut, nutScreen } from './nut-desktop'
import { startXvfb, type VirtualDisplay } from './xvfb'

const SIZE = { width: 720, height: 300 }

/** The ink box of one label, found by rendering it alone and scanning for dark pixels. */
async function inkBox(label: TextLabel) {
  const png = await renderTextPng([label], SIZE)
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true })
  let x0 = Number.POSITIVE_INFINITY
  let y0 = Number.POSITIVE_INFINITY
  let x1 = -1
  let y1 = -1
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[y * info.width + x]! < 128) {
        x0 = Math.min(x0, x)
        y0 = Math.min(y0, y)
        x1 = Math.max(x1, x + 1)
        y1 = Math.max(y1, y + 1)
      }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

const labels: TextLabel[] = [
  { text: 'Start Game', x: 40, y: 70 },
  { text: 'Settings', x: 420, y: 70 },
  { text: '게임 시작', x: 40, y: 190 },
  { text: '설정', x: 420, y: 190 },
  { text: '확인', x: 560, y: 270, fontSize: 28 },
]

const analyzer = createUIAnalyzer({ provider: 'ocr', fallback: [] })
afterAll(() => analyzer.close())

describe('ocr provider (tesseract.js, offline data)', () => {
  test('English and Korean data are found locally', () => {
    const found = findTessdata(['eng', 'kor'])
    expect([...found.keys()]).toEqual(['eng', 'kor'])
  })

  test('finds English and Korean words with their boxes within a few pixels', async () => {
    const png = await renderTextPng(labels, SIZE)
    const result = await analyzer.analyzeScreen(png)
    expect(analyzer.lastCall?.provider).toBe('ocr')
    for (const label of labels) {
      const found = result.elements.find((e) => e.text === label.text)
      expect(found, `"${label.text}" in ${JSON.stringify(result.elements.map((e) => e.text))}`).toBeDefined()
      const truth = await inkBox(label)
      const b = found!.boundingBox
      for (const [got, want] of [
        [b.x, truth.x],
        [b.y, truth.y],
        [b.x + b.width, truth.x + truth.width],
        [b.y + b.height, truth.y + truth.height],
      ] as const)
        expect(
          Math.abs(got - want),
          `${label.text}: ${JSON.stringify(b)} vs ink ${JSON.stringify(truth)}`,
        ).toBeLessThanOrEqual(4)
      expect(found!.type).toBe('text')
      expect(found!.confidence).toBeGreaterThan(0.5)
    }
  })

  test('analyzeElementAt reads the label under the click, in screen coordinates', async () => {
    const png = await renderTextPng(labels, SIZE)
    const truth = await inkBox(labels[3]!)
    const r = await analyzer.analyzeElementAt(png, truth.x + 10, truth.y + 10)
    expect(r.element?.text).toBe('설정')
    expect(Math.abs(r.element!.boundingBox.x - truth.x)).toBeLessThanOrEqual(4)
    expect(analyzer.inferIntent(r.element)).toBe('open_settings')
  })

  test('a dead Bedrock falls back to real OCR, and the report says so', async () => {
    const stub = await startBedrockStub({ default: { error: 'internal' } })
    const a = createUIAnalyzer({
      provider: 'bedrock',
      bedrock: { modelId: 'm', region: 'us-east-1', endpoint: stub.endpoint, credentials: STUB_AWS_CREDENTIALS },
      retryBaseDelayMs: 5,
    })
    try {
      const r = await a.analyzeScreen(
        await renderTextPng([{ text: 'Play', x: 40, y: 80 }], { width: 300, height: 120 }),
      )
      expect(r.elements.map((e) => e.text)).toContain('Play')
      expect(a.lastCall?.provider).toBe('ocr')
      expect(a.lastCall?.fallbacks).toMatchObject([{ provider: 'bedrock', code: 'VISION_UNAVAILABLE' }])
      expect(stub.requests).toHaveLength(4)
    } finally {
      await a.close()
      await stub.close()
    }
  })
})

describeVisionProvider('ocr', () => ocrProvider(), { supports: ['screen', 'element', 'compare'] })

describe('ocr compare: the text of two regions (the offline second opinion)', () => {
  const provider = ocrProvider()
  afterAll(() => provider.close?.())
  const region = (text: string, color = '#000000', fontSize = 40, background = '#ffffff') =>
    renderTextPng([{ text, x: 30, y: 80, color, fontSize }], { width: 320, height: 130, background })
  const compare = async (a: Uint8Array, b: Uint8Array) => {
    const part = async (bytes: Uint8Array) => {
      const m = await sharp(bytes).metadata()
      return { bytes, format: 'png' as const, width: m.width ?? 0, height: m.height ?? 0 }
    }
    const answer = await provider.ask({ task: 'compare', images: [await part(a), await part(b)], prompt: 'compare' })
    return answer.data as { match: boolean; reason: string }
  }

  test('a field showing 7*4 where 7*3 was recorded is a mismatch', async () => {
    const got = await compare(await region('7*3'), await region('7*4'))
    expect(got.match).toBe(false)
    expect(got.reason).toMatch(/3" in the recorded region and "7\*?4"/)
  })
  test('the same label restyled (colour, size) is a match', async () => {
    const got = await compare(await region('New Game'), await region('New Game', '#1565c0', 48, '#fff3e0'))
    expect(got.match).toBe(true)
  })
})

/**
 * Real programs on dark themes and restyled (the "colours" variant, where OCR used to read nothing):
 * real Xvfb, the program itself, a real screen grab, real Tesseract. Each box must be over its button: the program
 * reports the button a click on the box's centre pressed (xmessage: the box holds the button window's centre).
 */
describe('ocr on real dark-themed and restyled dialogs (Xvfb)', () => {
  const run = promisify(execFile)
  const LABELS = ['Archive', 'Delete', 'Keep']
  const QUESTION = 'Choose what happens to the 3 selected files.'
  const provider = ocrProvider()
  let xvfb: VirtualDisplay
  let workDir: string
  const env = () => ({ ...process.env, DISPLAY: xvfb.display })

  beforeAll(async () => {
    xvfb = await startXvfb({ width: 1280, height: 800 })
    process.env.DISPLAY = xvfb.display
    workDir = mkdtempSync(join(tmpdir(), 'qa-ocr-e2e-'))
  })
  afterAll(async () => {
    await provider.close?.()
    await closeNut()
    await xvfb?.stop()
    rmSync(workDir, { recursive: true, force: true })
  })

  interface Launched {
    child: ChildProcess
    /** What the program reports when it ends: its exit code and stdout. */
    ended: Promise<{ code: number | null; stdout: string }>
  }
  const launch = (file: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Launched => {
    const child = spawn(file, args, { env: { ...env(), ...extraEnv }, stdio: ['ignore', 'pipe', 'ignore'] })
    let stdout = ''
    child.stdout?.on('data', (d) => {
      stdout += d
    })
    const ended = new Promise<{ code: number | null; stdout: string }>((resolve) =>
      child.once('exit', (code) => resolve({ code, stdout: stdout.trim() })),
    )
    return { child, ended }
  }
  type Read = { text: string; bounding_box: { x: number; y: number; width: number; height: number } }
  /** Grabs the screen and reads it until every label is there (the program draws a moment after it starts). */
  const readLabels = async (): Promise<Map<string, Read['bounding_box']>> => {
    let elements: Read[] = []
    for (let attempt = 0; attempt < 40; attempt++) {
      await new Promise((r) => setTimeout(r, 250))
      const frame = await nutScreen().capture()
      const png = await sharp(Buffer.from(frame.data), {
        raw: { width: frame.width, height: frame.height, channels: 4 },
      })
        .png()
        .toBuffer()
      const answer = await provider.ask({
        task: 'screen',
        images: [{ bytes: png, format: 'png', width: frame.width, height: frame.height }],
        prompt: 'screen',
      })
      elements = (answer.data as { elements: Read[] }).elements
      if (LABELS.every((l) => elements.some((e) => e.text === l))) break
    }
    const boxes = new Map(elements.filter((e) => LABELS.includes(e.text)).map((e) => [e.text, e.bounding_box]))
    expect([...boxes.keys()].sort(), `read: ${JSON.stringify(elements.map((e) => e.text))}`).toEqual([...LABELS].sort())
    return boxes
  }
  const centre = (b: Read['bounding_box']) => ({ x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) })

  const clickedDialogs: {
    name: string
    start(): Launched
    /** The button label the program says it got, from its exit code and output. */
    reported(ended: { code: number | null; stdout: string }): string
  }[] = [
    {
      name: 'GTK 3 zenity, GTK_THEME=Adwaita:dark',
      start: () =>
        launch(
          'zenity',
          [
            '--question',
            '--text',
            QUESTION,
            '--ok-label',
            'Archive',
            '--cancel-label',
            'Keep',
            '--extra-button',
            'Delete',
          ],
          { GDK_BACKEND: 'x11', NO_AT_BRIDGE: '1', GTK_THEME: 'Adwaita:dark' },
        ),
      reported: ({ code, stdout }) => stdout || (code === 0 ? 'Archive' : code === 1 ? 'Keep' : `exit ${code}`),
    },
    {
      name: 'Qt 5 kdialog, QT_STYLE_OVERRIDE=Windows',
      start: () =>
        launch(
          'kdialog',
          ['--yesnocancel', QUESTION, '--yes-label', 'Archive', '--no-label', 'Delete', '--cancel-label', 'Keep'],
          { QT_QPA_PLATFORM: 'xcb', QT_ACCESSIBILITY: '0', QT_STYLE_OVERRIDE: 'Windows' },
        ),
      reported: ({ code }) => LABELS[code ?? -1] ?? `exit ${code}`,
    },
    {
      name: 'Tk 8.6 wish, tk_setPalette #30475e',
      start: () => {
        const script = join(workDir, 'dark-buttons.tcl')
        writeFileSync(
          script,
          [
            'tk_setPalette #30475e',
            'wm geometry . +60+50',
            `pack [label .question -text "${QUESTION}"] -side top -padx 8 -pady 8`,
            'foreach name {Archive Delete Keep} {',
            '  pack [button .b$name -text $name -command "puts $name; exit"] -side left -padx 6 -pady 6',
            '}',
          ].join('\n'),
        )
        return launch('wish', [script])
      },
      reported: ({ stdout }) => stdout,
    },
  ]

  for (const dialog of clickedDialogs)
    test(`${dialog.name}: every button label is read, a click on its box's centre presses it`, async () => {
      for (const label of LABELS) {
        const program = dialog.start()
        try {
          const boxes = await readLabels()
          const { x, y } = centre(boxes.get(label)!)
          await run('xdotool', ['mousemove', '--sync', String(x), String(y), 'click', '1'], { env: env() })
          const ended = await Promise.race([
            program.ended,
            new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no button pressed')), 10_000)),
          ])
          expect(dialog.reported(ended), `click at ${x},${y} on the box of "${label}"`).toBe(label)
        } finally {
          program.child.kill('SIGTERM')
          await program.ended
        }
      }
    })

  test("Athena xmessage with a dark background and buttons: each box holds its button window's centre", async () => {
    const program = launch('xmessage', [
      '-geometry',
      '+60+50',
      '-buttons',
      LABELS.join(','),
      '-bg',
      '#30475e',
      '-fg',
      '#f0f0f0',
      '-xrm',
      '*Command.background: #4a6d8c',
      QUESTION,
    ])
    try {
      const boxes = await readLabels()
      // every Xt widget is an X window: the buttons are the row of unnamed windows of the tree, left to right
      const { stdout: tree } = await run('xwininfo', ['-root', '-tree'], { env: env() })
      const windows = [
        ...tree.matchAll(/^\s+0x[0-9a-f]+ \(has no name\): \(\)\s+(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)$/gm),
      ].map((m) => ({ width: Number(m[1]), height: Number(m[2]), x: Number(m[3]), y: Number(m[4]) }))
      const rows = new Map<number, typeof windows>()
      for (const w of windows) rows.set(w.y, [...(rows.get(w.y) ?? []), w])
      const buttons = [...rows.values()].find((row) => row.length === LABELS.length)
      expect(buttons, tree).toBeDefined()
      buttons!.sort((a, b) => a.x - b.x)
      for (const [i, label] of LABELS.entries()) {
        const button = buttons![i]!
        const middle = { x: button.x + button.width / 2, y: button.y + button.height / 2 }
        const box = boxes.get(label)!
        expect(
          middle.x,
          `${label}: box ${JSON.stringify(box)}, button ${JSON.stringify(button)}`,
        ).toBeGreaterThanOrEqual(box.x)
        expect(middle.x).toBeLessThanOrEqual(box.x + box.width)
        expect(
          middle.y,
          `${label}: box ${JSON.stringify(box)}, button ${JSON.stringify(button)}`,
        ).toBeGreaterThanOrEqual(box.y)
        expect(middle.y).toBeLessThanOrEqual(box.y + box.height)
      }
    } finally {
      program.child.kill('SIGTERM')
      await program.ended
    }
  })
})
