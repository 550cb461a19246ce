import { mkdir, rm } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve } from 'node:path'
import {
  type Action,
  CURRENT_FORMAT_VERSION,
  describeAssertion,
  isClickLike,
  normalizeAssertedText,
  type TestCase,
} from '@qa/model'
import { saveTestCase, screenshotFolderOf, writeFileAtomic } from '@qa/model/node'
import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import type { AssertPickKind } from '@qa/matcher'
import { type CapturedElement, type CdpIdentityReader, createCdpIdentityReader } from '../browser/cdp-identity'
import { type SecretFieldRef, secretFieldsOf, type ViewportBox } from '../browser/cdp-secret-fields'
import {
  createRecorderWorld,
  evaluateInRecorderTop,
  type RecorderWorld,
  type WorldFrame,
} from '../browser/cdp-recorder-world'
import { gotoOrExplain } from '../browser/browser'
import { MASK_COLOR, maskedScreenshot, passwordBoxes } from '../browser/masked-screenshot'
import { settle } from '../browser/settle'
import { type FramePlacer, placeFrameEvent, pointInTopViewport } from './place-frame-event'
import {
  clickOfPointerDown,
  continueTyping,
  dialogOwner,
  doubleClickDescription,
  doubleClickPair,
  draggedDescription,
  dragDescription,
  dragOwner,
  fieldKey,
  filesDescription,
  filesOwner,
  historyKeysBefore,
  historyStep,
  keyStep,
  masksAround,
  nextInput,
  type ReachedInput,
  reachedInput,
  replacesClickBefore,
  scrollStep,
  typingKey,
  typingPoint,
} from './hand-events'
import { createSecretNamer } from './secret-names'
import { nativeListArea, opensNativeListFor } from './step-pairs'
import { activationMove, historyMove, historyOf, navigationActivationInPage } from './history-move'
import { saveElementCrop } from '../browser/visual'
import {
  type HoverReveal,
  inputReporterSource,
  type PageInputEvent,
  type PointerDownSnapshot,
  INPUT_TIMES_KEY,
  RECORD_BINDING,
} from './interactive'
import { type AnsweredDialog, watchDialogs } from '../browser/cdp-dialogs'
import {
  type BufferedFrame,
  composeFrameShot,
  type FrameBuffer,
  type PixelBox,
  startFrameBuffer,
} from '../browser/cdp-frame-buffer'
import { isSameElement, targetAtPointerDown } from './pointer-down-target'
import {
  installRecorderToolbarInPage,
  markToolbarPickedInPage,
  openToolbarEditorInPage,
  readToolbarEditorInPage,
  removeRecorderToolbarInPage,
  setToolbarFrameStateInPage,
  showToolbarHighlightInPage,
  signalToolbarInPage,
  TOOLBAR_BINDING,
  TOOLBAR_TAG,
  type ToolbarFrameState,
  type ToolbarRequest,
} from '../recorder-toolbar'
import { elementLabel } from './element-label'
import { assertInViewport } from '../browser/in-viewport'
import { adoptPage, watchNewPages } from '../browser/new-page'
import type { ScriptAssertStep, ScriptStep } from './script'
import { assertionTargetLabel, assertPickHighlight, captureAssertion } from './record-assertion'
import { pageAssertionProbe, pollAssertion } from '../assert-step'

export interface WebRecorderOptions {
  /** Where the case will be saved; screenshots go to a folder named after it, beside it. */
  caseFile: string
  name?: string
  /** Take before/after screenshots of every step (default true). */
  screenshots?: boolean
  /** DOM-quiet settle after each input (defaults 150 ms quiet, 5 s at most). */
  settleQuietMs?: number
  settleTimeoutMs?: number
  /** Prefix of the environment variables that hold secrets typed into password fields (default QA_SECRET_). */
  secretEnvPrefix?: string
  description?: string
  tags?: string[]
}

export interface WebRecorder {
  /** The page the flow is in: the start page, or the last page a step opened (`opens_page`). */
  readonly page: Page
  /**
   * Opens the start URL (recorded as the case's `start_url`); without one, the flow starts on the page as it is
   * (a person's own tab, attached over CDP).
   */
  start(url?: string): Promise<void>
  click(x: number, y: number, opts?: { button?: 'left' | 'right' | 'middle'; clickCount?: number }): Promise<Action>
  type(text: string): Promise<Action>
  press(key: string): Promise<Action>
  scroll(dy: number, opts?: { dx?: number; x?: number; y?: number }): Promise<Action>
  wait(ms: number): Promise<Action>
  navigate(url: string): Promise<Action>
  select(x: number, y: number, value: string): Promise<Action>
  /** Records an assertion about the page as it is now (`captureAssertion`); nothing is clicked. */
  assert(step: Omit<ScriptAssertStep, 'type'>): Promise<Action>
  /**
   * Runs scripted steps in order; `afterStep` after each one (`qa record web --script` saves the case there, so an
   * interrupted or failed recording keeps the steps so far). With `signal` aborted, stops before the next step.
   */
  run(
    steps: readonly ScriptStep[],
    opts?: { afterStep?: (done: number) => Promise<void>; signal?: AbortSignal },
  ): Promise<void>
  /**
   * Records what a person does in the page (interactive recording) until `stop()`: clicks, typing (one step
   * per field), select changes, special keys and scrolls. Returns after the reporter is installed.
   */
  listen(opts?: ListenOptions): Promise<{ stop(): Promise<void> }>
  testCase(): TestCase
  /** Saves the case atomically; refuses to overwrite an existing file unless asked. Returns its path. */
  save(opts?: { overwrite?: boolean }): Promise<string>
  close(): Promise<void>
}

/** A step of interactive recording, as soon as it is recorded (typing into it goes on in the same step). */
export interface RecordedStep {
  /** 0-based index in the case's actions. */
  index: number
  action: Action
  /** A double click took the place of the click recorded just before it (at the same index). */
  replaced: boolean
}

export interface ListenOptions {
  /** Called for every new step, in order. */
  onStep?: (step: RecordedStep) => void
  /**
   * Shows the recorder's toolbar in the page (a closed shadow root, never recorded, never in a screenshot); its
   * "Stop" button calls this.
   */
  onStopRequest?: () => void
}

const pad = (n: number) => String(n).padStart(3, '0')
const round2 = (v: number) => Math.round(v * 100) / 100

/** A recorded screenshot: its path (relative to the case), its bytes, and its unknown regions (pixels). */
interface Shot {
  path: string
  bytes: Buffer
  unknown?: PixelBox[]
}

/** Sets a step's before- or after-screenshot and the unknown regions of that screenshot. */
function setShot(action: Action, which: 'before' | 'after', shot: Shot | undefined): void {
  if (!shot) return
  if (which === 'before') action.screenshotBeforePath = shot.path
  else action.screenshotPath = shot.path
  const regions = { ...(action.unknownRegions ?? {}) }
  if (shot.unknown?.length) regions[which] = shot.unknown.map((b) => ({ ...b }))
  else delete regions[which]
  if (regions.before || regions.after) action.unknownRegions = regions
  else delete action.unknownRegions
}

/**
 * What the recorder runs in its world of every frame: the input reporter, and the toolbar when there is one. Both
 * report through one binding of that world (`bindingName`, a JSON text: `{ channel, message }`); the names they call
 * it by exist in that world only.
 */
function recorderWorldSource(bindingName: string, withToolbar: boolean): string {
  const toolbar = withToolbar
    ? `(${installRecorderToolbarInPage.toString()})(${JSON.stringify({ binding: TOOLBAR_BINDING, tag: TOOLBAR_TAG })})`
    : ''
  return `(() => {
  const relay = (channel) => (message) => {
    const call = globalThis[${JSON.stringify(bindingName)}]
    if (typeof call === 'function') call(JSON.stringify({ channel, message }))
  }
  globalThis[${JSON.stringify(RECORD_BINDING)}] = relay('input');
  globalThis[${JSON.stringify(TOOLBAR_BINDING)}] = relay('toolbar');
  ${inputReporterSource(RECORD_BINDING)};
  ${toolbar};
})()`
}

/** Keys that change a field's text: a character (with or without Shift), deleting. */
const EDITING_KEY = /^(?:Shift\+)?(?:.|Backspace|Delete|Space)$/u

/** The field a secret is typed into (for the masks of later screenshots). */
const fieldRef = (t: CapturedElement): SecretFieldRef => ({
  targetId: t.targetId ?? null,
  backendNodeId: t.backendNodeId,
})

/**
 * Records a web flow in a real page: for every input it captures the target's identity over CDP before the
 * input happens (the page may navigate away right after), dispatches the input as real events, waits for the
 * page to settle, and saves before/after screenshots with password fields masked.
 */
export async function createWebRecorder(firstPage: Page, opts: WebRecorderOptions): Promise<WebRecorder> {
  /** The page steps happen in; a step that opens a new page (target=_blank, window.open) moves the flow there. */
  let page = firstPage
  const caseFile = resolve(opts.caseFile)
  const caseDir = dirname(caseFile)
  const assetsDir = screenshotFolderOf(caseFile)
  const screenshots = opts.screenshots ?? true
  const quietMs = opts.settleQuietMs ?? 150
  const settleTimeoutMs = opts.settleTimeoutMs ?? 5_000
  const secretPrefix = opts.secretEnvPrefix ?? 'QA_SECRET_'
  const secretName = createSecretNamer(secretPrefix)
  if (screenshots) await mkdir(assetsDir, { recursive: true })

  let reader: CdpIdentityReader = await createCdpIdentityReader(page)
  const actions: Action[] = []
  let startUrl: string | null = null
  // a person's own browser (attached over CDP) has no emulated viewport: its window's is the case's
  const viewport =
    page.viewportSize() ??
    (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })).catch(() => null))
  /** The field the last `type` action typed into, to coalesce typing. */
  let lastTyped: { backendNodeId: number; targetId: string | null; url: string } | null = null

  async function shot(index: number, which: 'before' | 'after'): Promise<string | undefined> {
    return (await shotWithBytes(index, which))?.path
  }

  async function shotWithBytes(index: number, which: 'before' | 'after'): Promise<Shot | undefined> {
    if (!screenshots) return undefined
    const file = join(assetsDir, `step-${pad(index)}-${which}.png`)
    const bytes = await maskedScreenshot(page, file)
    return { path: relative(caseDir, file).split('\\').join('/'), bytes }
  }

  /**
   * A recorded screenshot from one screencast frame (what the page showed at that moment, nothing composited in):
   * secrets painted over as they were then (`extraMasks`) and are now, and the recorder's toolbar, which a
   * screencast shows, painted over and returned as an unknown region (never compared on replay).
   */
  async function frameShot(
    index: number,
    which: 'before' | 'after',
    frame: BufferedFrame,
    extraMasks: readonly ViewportBox[] = [],
  ): Promise<Shot | undefined> {
    if (!screenshots) return undefined
    const [secrets, passwords, toolbar, view] = await Promise.all([
      secretFieldsOf(page)
        .boxes()
        .catch((): ViewportBox[] => []),
      passwordBoxes(page),
      // the toolbar lives in the recorder's world (the page's scripts cannot reach it)
      evaluateInRecorderTop(
        page,
        () => {
          const host = (window as unknown as Record<symbol, Element | undefined>)[Symbol.for('qa.recorderToolbar')]
          const r = host?.isConnected ? host.getBoundingClientRect() : null
          // with a margin for its shadow, which falls outside its box
          return r ? { x: r.left - 16, y: r.top - 16, width: r.width + 32, height: r.height + 32 } : null
        },
        undefined,
      ).catch(() => null),
      page
        .evaluate(() => ({ width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio }))
        .catch(() => null),
    ])
    // the size a live capture of the page has: the viewport in device pixels
    const css = page.viewportSize() ?? (view ? { width: view.width, height: view.height } : null)
    const dpr = view?.dpr ?? 1
    const size = css ? { width: Math.round(css.width * dpr), height: Math.round(css.height * dpr) } : null
    const { png, unknown } = await composeFrameShot(frame.png, {
      size,
      masks: [...extraMasks, ...secrets, ...passwords],
      unknown: toolbar ? [toolbar] : [],
      cssWidth: css?.width ?? null,
      maskColor: MASK_COLOR,
    })
    const file = join(assetsDir, `step-${pad(index)}-${which}.png`)
    await writeFileAtomic(file, png, { overwrite: true })
    return { path: relative(caseDir, file).split('\\').join('/'), bytes: png, unknown }
  }

  /** The newest screencast frame older than `atMs` as the step's before-screenshot, or undefined without one. */
  async function frameBefore(
    index: number,
    frames: FrameBuffer | undefined,
    atMs: number | undefined,
    atDown?: PointerDownSnapshot | null,
    masksAt?: (frameAtMs: number) => ViewportBox[],
  ): Promise<Shot | undefined> {
    if (frames && atMs !== undefined) await frames.arrivedPast(atMs)
    const frame = frames && atMs !== undefined ? frames.before(atMs) : null
    if (!frame) return undefined
    const masks = [...(atDown?.passwords ?? []), ...(masksAt?.(frame.atMs) ?? [])]
    return frameShot(index, 'before', frame, masks).catch(() => undefined)
  }

  /**
   * A click's before-screenshot by hand: the newest screencast frame older than the pointer-down (what the person
   * saw before the page reacted). Without such a frame, a live capture as it is.
   */
  async function pointerDownShot(
    index: number,
    frames: FrameBuffer | undefined,
    atMs: number | undefined,
    atDown: PointerDownSnapshot | null | undefined,
    masksAt?: (frameAtMs: number) => ViewportBox[],
  ): Promise<Shot | undefined> {
    return (await frameBefore(index, frames, atMs, atDown, masksAt)) ?? shotWithBytes(index, 'before')
  }

  /** The element's pixels, for the visual strategy on replay. */
  async function crop(
    index: number,
    before: { bytes: Buffer } | undefined,
    action: Omit<Action, 'timestamp'>,
  ): Promise<string | undefined> {
    const box = action.identity?.boundingBox
    if (!before || !box) return undefined
    const file = join(assetsDir, `step-${pad(index)}-element.png`)
    const saved = await saveElementCrop(before.bytes, box, file).catch(() => false)
    return saved ? relative(caseDir, file).split('\\').join('/') : undefined
  }

  async function readerFor(): Promise<CdpIdentityReader> {
    // A CDP session survives navigations of the same page; re-create it if it was detached.
    try {
      await reader.session.send('DOM.getDocument', { depth: 0 })
      return reader
    } catch {
      reader = await createCdpIdentityReader(page)
      return reader
    }
  }

  async function record(
    build: (index: number) => Promise<Omit<Action, 'timestamp' | 'screenshotBeforePath' | 'screenshotPath'>>,
    perform: () => Promise<void>,
  ): Promise<Action> {
    const index = actions.length
    const before = await shotWithBytes(index, 'before')
    const partial = await build(index)
    const elementCrop = await crop(index, before, partial)
    const newPages = watchNewPages(page)
    await perform()
    await settle(page, quietMs, settleTimeoutMs)
    const opened = newPages.opened()
    newPages.dispose()
    if (opened) await switchTo(opened)
    const after = await shot(index, 'after')
    const action: Action = { timestamp: Date.now(), ...partial }
    if (opened) {
      action.opensPage = true
      action.description = `${action.description} (opens a new page)`
    }
    if (before) action.screenshotBeforePath = before.path
    if (elementCrop) action.elementCropPath = elementCrop
    if (after) action.screenshotPath = after
    actions.push(action)
    return action
  }

  /** Goes on in a page a step opened: later steps, screenshots and identities come from there. */
  async function switchTo(next: Page): Promise<void> {
    page = next
    await adoptPage(next)
    await reader.detach()
    reader = await createCdpIdentityReader(next)
    await settle(next, quietMs, settleTimeoutMs)
  }

  function withTarget(base: Omit<Action, 'timestamp'>, target: CapturedElement | null): Omit<Action, 'timestamp'> {
    if (!target) return base
    const action: Omit<Action, 'timestamp'> = { ...base, identity: target.identity, selectors: target.selectors }
    if (target.operates) action.operates = target.operates.identity
    return action
  }

  /**
   * A click step: its target and the control it operates, or coordinates only with the warning why. With what
   * the page described at pointer-down (interactive recording), the element pressed wins over the one under
   * the point now when the page replaced, relabelled or removed it on mousedown, or navigated away.
   */
  async function clickTarget(
    base: Omit<Action, 'timestamp'>,
    x: number,
    y: number,
    atDown?: PointerDownSnapshot | null,
  ) {
    const reader = await readerFor()
    const read = await reader.clickTargetAt(x, y).catch((error: unknown) => {
      if (!atDown) throw error
      return { target: null, warning: `the element could not be read (${String(error).split('\n')[0]})` }
    })
    let { target } = read
    const { warning } = read
    const pressed = targetAtPointerDown(atDown, viewport)
    if (pressed && (!target || !isSameElement(target.description, pressed)))
      target = await reader.fromDescription(pressed).catch(() => target)
    else if (pressed && target) {
      // the same element: its box as it was when pressed, where the before-screenshot shows it
      const b = pressed.box
      target.identity.boundingBox = { x: round2(b.x), y: round2(b.y), width: round2(b.width), height: round2(b.height) }
    }
    const action = withTarget(base, target)
    action.description = describeTarget('Click', target, `Click (${Math.round(x)}, ${Math.round(y)})`)
    if (!target && warning) action.warning = warning
    return action
  }

  const describeTarget = (verb: string, t: CapturedElement | null, fallback: string) => {
    if (!t) return fallback
    const label = elementLabel(t.identity)
    const role = t.identity.axRole || t.identity.tagName
    return label ? `${verb} ${role} ${label}` : `${verb} ${role}`
  }

  /** A password field now, or a field a secret was typed into before (its type may have changed since). */
  function isSecretField(target: CapturedElement): boolean {
    return target.description.isPassword || secretFieldsOf(page).isRemembered(fieldRef(target))
  }

  /**
   * Typing into the focused field (`perform` does it): consecutive typing into the same field is one step. A
   * secret field's step says `********` and names the variable the replay types from; the field is remembered,
   * so it stays painted over in every later screenshot whatever its type becomes.
   */
  async function typeStep(target: CapturedElement | null, text: string, perform: () => Promise<void>): Promise<Action> {
    const isPassword = target ? isSecretField(target) : false
    if (isPassword && target) secretFieldsOf(page).remember(fieldRef(target))
    const url = page.url()
    const previous = actions.at(-1)
    const secretEnv = isPassword && target ? secretName(target.identity, url) : undefined
    if (
      previous &&
      previous.actionType === 'type' &&
      lastTyped &&
      target &&
      lastTyped.backendNodeId === target.backendNodeId &&
      lastTyped.targetId === (target.targetId ?? null) &&
      lastTyped.url === url
    ) {
      await perform()
      await settle(page, quietMs, settleTimeoutMs)
      if (isPassword) {
        previous.text = '********'
        if (secretEnv && !previous.secretEnv) previous.secretEnv = secretEnv
      } else previous.text = `${previous.text ?? ''}${text}`
      const after = await shot(actions.length - 1, 'after')
      if (after) previous.screenshotPath = after
      return previous
    }
    const action = await record(async () => {
      const box = target?.identity.boundingBox
      const x = box ? Math.round(box.x + box.width / 2) : 0
      const y = box ? Math.round(box.y + box.height / 2) : 0
      const base: Omit<Action, 'timestamp'> = {
        actionType: 'type',
        x,
        y,
        text: isPassword ? '********' : text,
        description: describeTarget('Type into', target, 'Type'),
      }
      if (secretEnv) base.secretEnv = secretEnv
      return withTarget(base, target)
    }, perform)
    lastTyped = target ? { backendNodeId: target.backendNodeId, targetId: target.targetId ?? null, url } : null
    return action
  }

  const recorder: WebRecorder = {
    get page() {
      return page
    },
    async start(url) {
      if (url !== undefined) await gotoOrExplain(page, url)
      await settle(page, quietMs, settleTimeoutMs)
      startUrl = page.url()
    },

    async click(x, y, clickOpts = {}) {
      lastTyped = null
      const button = clickOpts.button ?? 'left'
      const clickCount = clickOpts.clickCount ?? 1
      await assertInViewport(page, x, y)
      return record(
        async () => {
          const actionType = button === 'right' ? 'right_click' : clickCount >= 2 ? 'double_click' : 'click'
          return clickTarget({ actionType, x: Math.round(x), y: Math.round(y), button, description: '' }, x, y)
        },
        async () => {
          await page.mouse.click(x, y, { button, clickCount })
        },
      )
    },

    async type(text) {
      const target = await (await readerFor()).focused()
      return typeStep(target, text, () => page.keyboard.type(text))
    },

    async press(key) {
      const target = await (await readerFor()).focused()
      // a key that edits a secret is part of typing that secret: one masked step, never keys in clear
      if (target && isSecretField(target) && EDITING_KEY.test(key))
        return typeStep(target, '', () => page.keyboard.press(key))
      lastTyped = null
      return record(
        async () => {
          const box = target?.identity.boundingBox
          return withTarget(
            {
              actionType: 'key_press',
              x: box ? Math.round(box.x + box.width / 2) : 0,
              y: box ? Math.round(box.y + box.height / 2) : 0,
              key,
              description: `Press ${key}`,
            },
            target && target.identity.tagName !== 'body' ? target : null,
          )
        },
        async () => {
          await page.keyboard.press(key)
        },
      )
    },

    async scroll(dy, scrollOpts = {}) {
      lastTyped = null
      const x = scrollOpts.x ?? Math.round((viewport?.width ?? 1280) / 2)
      const y = scrollOpts.y ?? Math.round((viewport?.height ?? 720) / 2)
      const dx = scrollOpts.dx ?? 0
      return record(
        async () => ({
          actionType: 'scroll',
          x,
          y,
          scrollDx: Math.round(dx),
          scrollDy: Math.round(dy),
          description: `Scroll by ${Math.round(dy)} px`,
        }),
        async () => {
          await page.mouse.move(x, y)
          await page.mouse.wheel(dx, dy)
        },
      )
    },

    async wait(ms) {
      lastTyped = null
      const action: Action = {
        timestamp: Date.now(),
        actionType: 'wait',
        x: 0,
        y: 0,
        durationMs: ms,
        description: `Wait ${ms} ms`,
      }
      await page.waitForTimeout(ms)
      actions.push(action)
      return action
    },

    async navigate(url) {
      lastTyped = null
      return record(
        async () => ({ actionType: 'navigate', x: 0, y: 0, url, description: `Go to ${url}` }),
        async () => {
          await gotoOrExplain(page, new URL(url, page.url()).href)
        },
      )
    },

    async select(x, y, value) {
      lastTyped = null
      await assertInViewport(page, x, y, `select of "${value}"`)
      let target: CapturedElement | null = null
      return record(
        async () => {
          target = await (await readerFor()).atPoint(x, y)
          return withTarget(
            {
              actionType: 'select',
              x: Math.round(x),
              y: Math.round(y),
              value,
              description: describeTarget(`Select "${value}" in`, target, `Select "${value}"`),
            },
            target,
          )
        },
        async () => {
          const handle = await page.evaluateHandle(
            ({ px, py }) => {
              const el = document.elementFromPoint(px, py)
              return el?.closest('select') ?? el
            },
            { px: x, py: y },
          )
          const element = handle.asElement()
          if (!element) throw new Error(`No element at (${x}, ${y}) to select "${value}" in.`)
          await element.selectOption({ label: value }).catch(() => element.selectOption(value))
        },
      )
    },

    async assert(step) {
      lastTyped = null
      if (step.x !== undefined && step.y !== undefined)
        await assertInViewport(page, step.x, step.y, `${step.kind} assertion`)
      const reader = await readerFor()
      return record(
        async () => {
          const action = await captureAssertion(page, reader, { type: 'assert', ...step })
          // one look now: an assertion that does not hold while recording would fail every replay
          const now = await pollAssertion(
            action.assertion!,
            pageAssertionProbe(() => page, action as Action),
            {
              timeoutMs: 0,
            },
          )
          if (!now.holds)
            action.warning = `it did not hold when recorded (expected ${now.expected}, actual ${now.actual})`
          return action
        },
        async () => {},
      )
    },

    async run(steps, runOpts = {}) {
      for (const [index, step] of steps.entries()) {
        if (runOpts.signal?.aborted) return
        switch (step.type) {
          case 'assert':
            await recorder.assert(step)
            break
          case 'click':
            await recorder.click(step.x, step.y, {
              ...(step.button ? { button: step.button } : {}),
              ...(step.clickCount ? { clickCount: step.clickCount } : {}),
            })
            break
          case 'type':
            await recorder.type(step.text)
            break
          case 'press':
            await recorder.press(step.key)
            break
          case 'scroll':
            await recorder.scroll(step.dy, {
              ...(step.dx !== undefined ? { dx: step.dx } : {}),
              ...(step.x !== undefined ? { x: step.x } : {}),
              ...(step.y !== undefined ? { y: step.y } : {}),
            })
            break
          case 'wait':
            await recorder.wait(step.ms)
            break
          case 'navigate':
            await recorder.navigate(step.url)
            break
          case 'select':
            await recorder.select(step.x, step.y, step.value)
            break
        }
        await runOpts.afterStep?.(index + 1)
      }
    },

    testCase() {
      const tc: TestCase = {
        name: opts.name ?? basename(caseFile).replace(/\.json$/i, ''),
        version: CURRENT_FORMAT_VERSION,
        platform: 'web',
        createdAt: new Date().toISOString(),
        actions: structuredClone(actions),
      }
      if (opts.description) tc.description = opts.description
      if (opts.tags) tc.tags = opts.tags
      if (startUrl) tc.startUrl = startUrl
      if (viewport) tc.viewport = { width: viewport.width, height: viewport.height }
      return tc
    },

    async save(saveOpts = {}) {
      await saveTestCase(caseFile, recorder.testCase(), saveOpts)
      return caseFile
    },

    async listen(listenOpts = {}) {
      let queue: Promise<unknown> = Promise.resolve()
      let stopped = false
      /**
       * A pick in the native list the previous click opened: where the list was drawn, the screenshots show what the
       * person's resting pointer made of the page under it (a field's hover look), which no replay repeats; those
       * pixels are unknown in both of the pick's screenshots (`nativeListArea`), never compared.
       */
      const markNativeListUnknown = async (action: Action) => {
        const box = action.identity?.boundingBox
        const view = await evaluateInRecorderTop(
          page,
          () => ({ width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio }),
          undefined,
        ).catch(() => null)
        if (!box || !view) return
        const listed = nativeListArea(box, view.height)
        const area = {
          ...listed,
          width: Math.min(listed.width, view.width - listed.x),
          height: Math.min(listed.height, view.height - listed.y),
        }
        if (area.width <= 0 || area.height <= 0) return
        const scale = (v: number) => Math.round(v * view.dpr)
        const pixels = { x: scale(area.x), y: scale(area.y), width: scale(area.width), height: scale(area.height) }
        const regions = { ...(action.unknownRegions ?? {}) }
        for (const which of ['before', 'after'] as const) regions[which] = [...(regions[which] ?? []), { ...pixels }]
        action.unknownRegions = regions
      }
      const pushStep = (action: Action, replaced = false) => {
        actions.push(action)
        listenOpts.onStep?.({ index: actions.length - 1, action, replaced })
      }
      const attached: Page[] = []
      /** Each attached page's recorder world: where the reporter and the toolbar live, out of the page's reach. */
      const worlds = new Map<Page, RecorderWorld>()
      // names of this recording's own (the page can see neither: they exist in the recorder's world only)
      const nonce = randomUUID().replaceAll('-', '')
      const worldName = `qa-recorder-${nonce}`
      const bindingName = `__qaRecorder_${nonce}`
      /** The toolbar's assert mode and editor, as its top frame last said: frames that load meanwhile get it. */
      let toolbarState: ToolbarFrameState = { mode: null, editing: false }
      /** Each attached page's recent frames, for before-screenshots from before the pointer went down. */
      const buffers = new Map<Page, FrameBuffer>()
      /** When each click was pressed (its pointer-down's time), to give it the dialog it opened. */
      const pressedAt = new Map<Action, number>()
      /** Pointer-down times as they arrive (before the queue handles them): a dialog belongs to the last before it. */
      const downs: number[] = []
      /** Each pointer-down's time as the page sent it → as stamped on arrival (a drag names its pointer-down so). */
      const pageDownAt = new Map<number, number>()
      /** What the page described at each click's pointer-down (a drag's source, when its click found no control). */
      const downSnapshots = new Map<Action, PointerDownSnapshot>()
      const dialogs: AnsweredDialog[] = []
      const dialogWatches: { dispose(): Promise<void> }[] = []
      /**
       * Every input as it reached the page (its own time stamp, ms since the epoch), in order of arrival; `field`
       * names the field of typing. A step's after-screenshot is from before the next of them.
       */
      const inputs: ReachedInput[] = []
      /** The secrets' boxes at the inputs around `atMs` (`masksAround`). */
      const masksAt = (atMs: number): ViewportBox[] => masksAround(inputs, atMs)
      /** When the first input after `atMs` reached the page: reported, or as the page noted it (not reported yet). */
      const nextInputAt = async (atMs: number): Promise<number | undefined> => {
        const noted = await evaluateInRecorderTop(
          page,
          (key) => (window as unknown as Record<symbol, number[] | undefined>)[Symbol.for(key)] ?? [],
          INPUT_TIMES_KEY,
        ).catch((): number[] => [])
        const times = [...noted, ...(nextInput(inputs, atMs) ? [nextInput(inputs, atMs)!.at] : [])].filter(
          (t) => t > atMs,
        )
        return times.length ? Math.min(...times) : undefined
      }
      /**
       * A step's after-screenshot: what the page showed once the step's effect settled, and before the
       * next input reached it; typing right after a click never shows in the click's. A live capture (which hides
       * the toolbar) when no input came before it was taken; else the newest screencast frame older than that
       * input.
       */
      const afterShot = async (index: number, stepAt: number | undefined): Promise<Shot | undefined> => {
        if (!screenshots) return undefined
        await settle(page, quietMs, settleTimeoutMs)
        const settledAt = Date.now()
        const frames = buffers.get(page)
        const cutoffOf = async () => {
          const next = stepAt === undefined ? undefined : await nextInputAt(stepAt)
          return next !== undefined ? Math.min(next, settledAt) : null
        }
        if ((await cutoffOf()) === null) {
          const live = await shotWithBytes(index, 'after').catch(() => undefined)
          // the page notes an input the moment it reaches it: none since the step, none in this capture
          const cutoff = await cutoffOf()
          if (live && (cutoff === null || !frames)) return live
        }
        const cutoff = (await cutoffOf()) ?? settledAt
        await frames?.arrivedPast(cutoff)
        const frame = frames?.before(cutoff)
        if (!frame) return shotWithBytes(index, 'after')
        return frameShot(index, 'after', frame, masksAt(frame.atMs)).catch(() => shotWithBytes(index, 'after'))
      }
      /** Gives each answered dialog to the click it followed, once that click is a step. */
      const attachDialogs = () => {
        for (const d of dialogs.slice()) {
          const owner = dialogOwner(d.openedAt, downs, actions, (a) => pressedAt.get(a))
          if (owner === 'drop') {
            dialogs.splice(dialogs.indexOf(d), 1)
            continue
          }
          if (owner === 'wait') continue
          owner.dialog = d.answer
          dialogs.splice(dialogs.indexOf(d), 1)
        }
      }
      let typing: { action: Action; key: string; secret: boolean } | null = null
      /**
       * A hover step: the element the pointer rested on to reveal the one pressed next. Its before-screenshot is
       * the newest frame from before the pointer entered it.
       */
      const hoverStep = async (
        hover: HoverReveal,
        pressedAtMs: number | undefined,
        framePathUnknown: boolean,
      ): Promise<Action | null> => {
        // a cross-origin frame whose place in the page could not be described (`placeFrameEvent`): the element at
        // the hover point is read over CDP, which knows its frames
        const reader = await readerFor()
        const target = await (framePathUnknown
          ? reader.assertTargetAt(hover.x, hover.y)
          : reader.fromDescription(hover.description)
        ).catch(() => null)
        if (!target) return null
        const index = actions.length
        const frames = buffers.get(page)
        const at = Math.min(hover.at, pressedAtMs ?? hover.at)
        const beforeShot = await pointerDownShot(index, frames, at, null, masksAt).catch(() => undefined)
        const action: Action = {
          timestamp: Date.now(),
          ...withTarget(
            {
              actionType: 'hover',
              x: Math.round(hover.x),
              y: Math.round(hover.y),
              description: describeTarget('Hover over', target, 'Hover'),
            },
            target,
          ),
        }
        setShot(action, 'before', beforeShot)
        const elementCrop = await crop(index, beforeShot, action)
        if (elementCrop) action.elementCropPath = elementCrop
        pushStep(action)
        return action
      }
      const enqueue = (job: () => Promise<unknown>) => {
        queue = queue.then(job).catch(() => undefined)
      }
      const handle = async (event: PageInputEvent) => {
        switch (event.kind) {
          case 'pointerdown': {
            typing = null
            // Resolve the element now, before the click's effects (a person's click takes ~100 ms).
            const { actionType, button, x, y } = clickOfPointerDown(event)
            const base = { actionType, x, y, button, description: '' } as const
            // the browser may go away (closed, killed) before the element is read: the click is kept by coordinates
            const partial = await clickTarget(base, event.x, event.y, event.snapshot).catch(
              (error): Omit<Action, 'timestamp'> => ({
                ...base,
                description: `Click (${base.x}, ${base.y})`,
                warning: `the element could not be read (${String(error).split('\n')[0]}): recorded as a coordinate step`,
              }),
            )
            // the hover that made the pressed element visible (a hover-only menu) is a step of its own, before it
            const hover = event.hover ? await hoverStep(event.hover, event.at, event.framePathUnknown === true) : null
            const index = actions.length
            const beforeShot = await pointerDownShot(index, buffers.get(page), event.at, event.snapshot, masksAt).catch(
              () => undefined,
            )
            // what the hover showed is what the person saw before pressing
            if (hover) setShot(hover, 'after', beforeShot)
            const replaced = replacesClickBefore(actionType, actions.at(-1))
            if (replaced) actions.pop()
            const action: Action = { timestamp: Date.now(), ...partial }
            if (event.at !== undefined) pressedAt.set(action, event.at)
            if (event.snapshot) downSnapshots.set(action, event.snapshot)
            setShot(action, 'before', beforeShot)
            const elementCrop = await crop(index, beforeShot, action)
            if (elementCrop) action.elementCropPath = elementCrop
            pushStep(action, replaced)
            attachDialogs()
            setShot(action, 'after', await afterShot(index, event.at))
            break
          }
          case 'drag': {
            typing = null
            // only a plain click becomes a drag (a double click or a right click stays what it was)
            const owner = dragOwner(actions, (a) => pressedAt.get(a), pageDownAt, event.downAt)
            if (owner === undefined) break
            // (a cross-origin frame whose path could not be described: the drop point is read over CDP)
            const drop =
              event.drop && !event.framePathUnknown
                ? await (await readerFor()).fromDescription(event.drop).catch(() => null)
                : await (await readerFor()).atPoint(event.endX, event.endY).catch(() => null)
            // what was dragged, as it was at pointer-down: a card or a row is often no control by its markup, and
            // by the time its click was read it had moved away with the pointer
            const atDown = downSnapshots.get(owner)
            if (atDown && !targetAtPointerDown(atDown, viewport)) {
              const named = draggedDescription(atDown.descriptions)
              const dragged = named ? await (await readerFor()).fromDescription(named).catch(() => null) : null
              if (dragged) {
                delete owner.operates
                Object.assign(owner, withTarget(owner, dragged))
                const b = named!.box
                owner.identity!.boundingBox = {
                  x: round2(b.x),
                  y: round2(b.y),
                  width: round2(b.width),
                  height: round2(b.height),
                }
                owner.description = describeTarget('Click', dragged, owner.description)
                delete owner.warning
              }
            }
            owner.actionType = 'drag'
            owner.endX = Math.round(event.endX)
            owner.endY = Math.round(event.endY)
            if (drop) {
              owner.dropIdentity = drop.identity
              owner.dropSelectors = drop.selectors
            }
            owner.description = dragDescription(
              owner.description,
              drop ? describeTarget('', drop, '').trim() : null,
              owner.endX,
              owner.endY,
            )
            const index = actions.indexOf(owner)
            listenOpts.onStep?.({ index, action: owner, replaced: true })
            setShot(owner, 'after', await afterShot(index, event.receivedAt))
            break
          }
          case 'dblclick': {
            // the two presses of a double click were recorded as clicks: one double-click step takes their place
            const pair = doubleClickPair(actions, event)
            if (!pair) break
            const { first, second } = pair
            actions.pop()
            for (const path of [second.screenshotBeforePath, second.screenshotPath, second.elementCropPath])
              if (path) await rm(join(caseDir, path), { force: true })
            first.actionType = 'double_click'
            first.description = doubleClickDescription(first.description)
            if (second.dialog && !first.dialog) first.dialog = second.dialog
            const index = actions.indexOf(first)
            listenOpts.onStep?.({ index, action: first, replaced: true })
            setShot(first, 'after', await afterShot(index, event.at ?? event.receivedAt))
            break
          }
          case 'files': {
            typing = null
            // the files go with the step that opened the chooser: the last click (or key) before they were chosen
            const owner = filesOwner(actions, event.names)
            if (!owner) break
            owner.files = event.names
            owner.description = filesDescription(owner.description, event.names)
            break
          }
          case 'input': {
            const key = typingKey(event, page.url())
            const stepAt = event.at ?? event.receivedAt
            /** The typing's after-screenshot, unless more typing into the same field already reached the page. */
            const typingAfter = async (action: Action) => {
              const next = stepAt === undefined ? undefined : nextInput(inputs, stepAt)
              if (next && next.field === fieldKey(event.x, event.y)) return
              setShot(action, 'after', await afterShot(actions.indexOf(action), stepAt))
            }
            const goesOn = continueTyping(typing, actions.at(-1), key, event)
            if (goesOn.kind === 'continue' && typing) {
              // a secret stays a secret when the field shows it ("show password")
              if (goesOn.text !== null) typing.action.text = goesOn.text
              await typingAfter(typing.action)
              break
            }
            // The field the page-side script reported (its centre) is the one typed into. Events are handled in
            // order but late: by now focus may have moved on (a click into the password field queued behind this
            // typing), so focus decides only where the point does not reach a field (a cross-origin iframe,
            // whose script cannot tell its place in the top page).
            const isFieldTag = (t: string | undefined) => t !== undefined && /^(input|textarea)$/i.test(t)
            let target: CapturedElement | null = null
            let isField = false
            try {
              const reader = await readerFor()
              const pointed = await reader.atPoint(event.x, event.y)
              const focused = isFieldTag(pointed?.identity.tagName) ? null : await reader.focused().catch(() => null)
              isField = focused !== null && isFieldTag(focused.identity.tagName)
              target = isField ? focused : pointed
              // the page described the field when it was typed into: when another element stands there now (the
              // page moved on meanwhile), the field as it was is the one typed into
              if (event.field && (!target || !isSameElement(target.description, event.field))) {
                target = await reader.fromDescription(event.field)
                isField = true
              }
            } catch {
              // the page or the browser went away meanwhile: the typing is kept, at the field's coordinates
            }
            const secret = event.isPassword || (target !== null && isSecretField(target))
            if (secret && target) secretFieldsOf(page).remember(fieldRef(target))
            else if (secret)
              await secretFieldsOf(page)
                .rememberFocused()
                .catch(() => null)
            const base: Omit<Action, 'timestamp'> = {
              actionType: 'type',
              ...typingPoint(isField ? target?.identity.boundingBox : undefined, event),
              text: secret ? '********' : event.value,
              description: describeTarget('Type into', target, 'Type'),
            }
            if (secret && target) base.secretEnv = secretName(target.identity, page.url())
            const action: Action = { timestamp: Date.now(), ...withTarget(base, target) }
            // the field before the first character reached it, and after the last one
            const index = actions.length
            const before = await frameBefore(index, buffers.get(page), stepAt, null, masksAt)
            setShot(action, 'before', before)
            const elementCrop = await crop(index, before, action)
            if (elementCrop) action.elementCropPath = elementCrop
            pushStep(action)
            typing = { action, key, secret }
            await typingAfter(action)
            break
          }
          case 'select': {
            typing = null
            const target = await (await readerFor()).atPoint(event.x, event.y)
            const action: Action = {
              timestamp: Date.now(),
              ...withTarget(
                {
                  actionType: 'select',
                  x: Math.round(event.x),
                  y: Math.round(event.y),
                  value: event.label,
                  description: describeTarget(`Select "${event.label}" in`, target, `Select "${event.label}"`),
                },
                target,
              ),
            }
            const index = actions.length
            const opener = actions[index - 1]
            const before = await frameBefore(index, buffers.get(page), event.at, null, masksAt)
            setShot(action, 'before', before)
            const elementCrop = await crop(index, before, action)
            if (elementCrop) action.elementCropPath = elementCrop
            pushStep(action)
            setShot(action, 'after', await afterShot(index, event.at ?? event.receivedAt))
            if (opener && opensNativeListFor(opener, action)) await markNativeListUnknown(action)
            break
          }
          case 'key': {
            typing = null
            const action: Action = { timestamp: Date.now(), ...keyStep(event) }
            const index = actions.length
            setShot(action, 'before', await frameBefore(index, buffers.get(page), event.at, null, masksAt))
            pushStep(action)
            setShot(action, 'after', await afterShot(index, event.at ?? event.receivedAt))
            break
          }
          case 'scroll': {
            typing = null
            const action: Action = { timestamp: Date.now(), ...scrollStep(event) }
            const index = actions.length
            setShot(action, 'before', await frameBefore(index, buffers.get(page), event.at, null, masksAt))
            pushStep(action)
            setShot(action, 'after', await afterShot(index, event.at ?? event.receivedAt))
            break
          }
        }
      }
      /** Text and value assertions picked with the toolbar, waiting for the person to confirm them in its editor. */
      const drafts = new Map<number, { action: Action; index: number; target: Page }>()
      let draftIds = 0
      /**
       * An assertion picked with the toolbar (the page never saw the click): the element at the point, captured like
       * a click's target, with its text or value as it is now for `expected`. A visible assertion is a step at once;
       * a text or value one opens the toolbar's editor with that text or value, and is a step once confirmed there.
       */
      /**
       * The element of an assert pick, read at once, while the page still is as the person saw it: the queue may
       * get to the pick only after what the person did next (a dialog closed by the next click).
       */
      const readPick = (request: Extract<ToolbarRequest, { kind: 'assert' }>) =>
        readerFor()
          .then((r) => r.assertPickAt(request.x, request.y, request.assert as AssertPickKind))
          .catch(() => null)
      const pickedAssertion = async (
        request: Extract<ToolbarRequest, { kind: 'assert' }>,
        target: Page,
        picked: Promise<CapturedElement | null>,
      ) => {
        typing = null
        const index = actions.length
        const before = await shotWithBytes(index, 'before').catch(() => undefined)
        const partial = await captureAssertion(
          page,
          await readerFor(),
          { type: 'assert', kind: request.assert, x: request.x, y: request.y },
          { picked },
        ).catch(() => null)
        if (!partial) {
          await removeShots(before?.path)
          await nothingToAssert(request, target)
          return
        }
        const edited = request.assert === 'text' || request.assert === 'value'
        const action: Action = { timestamp: Date.now(), ...partial }
        if (before) {
          action.screenshotBeforePath = before.path
          action.screenshotPath = before.path
          const elementCrop = await crop(index, before, action)
          if (elementCrop) action.elementCropPath = elementCrop
        }
        if (!edited || !action.assertion) {
          pushStep(action)
          return
        }
        const id = ++draftIds
        drafts.set(id, { action, index, target })
        const assertion = action.assertion
        const opened = await evaluateInRecorderTop(target, openToolbarEditorInPage, {
          id,
          assert: request.assert as 'text' | 'value',
          expected: String(assertion.expected ?? ''),
          op: assertion.op === 'contains' ? ('contains' as const) : ('equals' as const),
        }).catch(() => false)
        // no editor to confirm it in (the page went away meanwhile): the assertion is kept as it was read
        if (!opened) confirmDraft(id, null)
      }
      /** The toolbar's editor, waiting for a text or value pick, says there is nothing to assert there. */
      const nothingToAssert = async (request: Extract<ToolbarRequest, { kind: 'assert' }>, target: Page) => {
        if (request.assert === 'text' || request.assert === 'value')
          await evaluateInRecorderTop(target, openToolbarEditorInPage, {
            id: -1,
            error: 'Nothing to assert there',
          }).catch(() => undefined)
      }
      /**
       * A draft assertion as the person confirmed it in the toolbar (null: as it was read). `unconfirmed`: the
       * recording stopped while its editor was open (Ctrl-C, the window closed): it is kept as the editor held it
       * then (`edit`; null: the editor could not be read, as it was read), with a warning that says so.
       */
      const confirmDraft = (
        id: number,
        edit: { op: 'equals' | 'contains'; expected: string } | null,
        unconfirmed = false,
      ) => {
        const draft = drafts.get(id)
        if (!draft) return
        drafts.delete(id)
        const { action } = draft
        const assertion = action.assertion
        if (edit && assertion) {
          assertion.expected = assertion.kind === 'text' ? normalizeAssertedText(edit.expected) : edit.expected
          if (edit.op === 'contains') assertion.op = 'contains'
          else delete assertion.op
          action.description = describeAssertion(assertion, assertionTargetLabel(action.identity))
          delete action.warning
        }
        if (unconfirmed)
          action.warning = edit
            ? 'not confirmed: recording stopped while its editor was open; saved as the editor held it then'
            : 'not confirmed: recording stopped while its editor was open; saved with the value read from the page (the editor could not be read)'
        // another step took this draft's screenshot names meanwhile: it keeps none rather than another step's
        if (actions.length !== draft.index) {
          delete action.screenshotBeforePath
          delete action.screenshotPath
          delete action.elementCropPath
        }
        pushStep(action)
      }
      const cancelDraft = async (id: number) => {
        const draft = drafts.get(id)
        if (!draft) return
        drafts.delete(id)
        if (actions.length === draft.index)
          await removeShots(draft.action.screenshotBeforePath, draft.action.elementCropPath)
      }
      const removeShots = async (...paths: (string | null | undefined)[]) => {
        for (const path of paths) if (path) await rm(join(caseDir, path), { force: true })
      }
      /**
       * The assert mode's highlight: the element a pick under the pointer would assert on and the
       * name the assertion will use, drawn by the toolbar. In the queue (a highlight never reads the page while a pick
       * or a step does; hovers come only while an assert mode waits, when no click is recorded), at most one waiting
       * there, for the newest pointer place.
       */
      let hoverNext: {
        request: Extract<ToolbarRequest, { kind: 'hover' }>
        placeFrame: FramePlacer
        target: Page
      } | null = null
      let hoverQueued = false
      const highlightPick = (
        request: Extract<ToolbarRequest, { kind: 'hover' }>,
        placeFrame: FramePlacer,
        target: Page,
      ) => {
        hoverNext = { request, placeFrame, target }
        if (hoverQueued) return
        hoverQueued = true
        enqueue(async () => {
          hoverQueued = false
          const next = hoverNext
          hoverNext = null
          if (!next || stopped) return
          const { request: r } = next
          const point =
            r.inFrame === undefined ? r : await pointInTopViewport(r, next.placeFrame, r.inFrame).catch(() => null)
          const highlight = point ? await assertPickHighlight(await readerFor(), r.assert, point.x, point.y) : null
          await evaluateInRecorderTop(
            next.target,
            showToolbarHighlightInPage,
            highlight ? { assert: r.assert, ...highlight } : null,
          ).catch(() => undefined)
        })
      }
      /** Pages a step opened whose input is reported already, before the queue gets to the switch into them. */
      const opening = new Set<Page>()
      /** Reports a page's input, and moves the recording into a page it opens (after the click that opened it). */
      const attach = async (target: Page) => {
        /** An input a frame's world reported: the recorder's own binding, in the recorder's world only. */
        const onInput = (frame: WorldFrame, world: RecorderWorld, event: PageInputEvent) => {
          // a page being opened reports from its first moments: its input waits in the queue behind the switch
          if (stopped || (target !== page && !opening.has(target))) return
          if (!event || typeof event !== 'object' || typeof event.kind !== 'string') return
          if (event.kind === 'pointerdown') {
            // stamped on arrival, so that a dialog the click opens finds it before the queue reaches it
            const pageAt = event.at
            event.at = Math.min(event.at ?? Date.now(), Date.now())
            if (pageAt !== undefined) pageDownAt.set(pageAt, event.at)
            downs.push(event.at)
          }
          const receivedAt = Date.now()
          event.receivedAt = receivedAt
          // an input that reaches the page ends the moment of the step before it: its frame before is kept
          const reached = reachedInput({ ...event, receivedAt })
          if (reached) {
            inputs.push(reached)
            buffers.get(target)?.pin(reached.at)
          }
          // an event from below a cross-origin parent is placed in the top viewport first (in order, in the queue)
          if (event.inFrame !== undefined)
            enqueue(async () => handle(await placeFrameEvent(event, (hops) => world.placeFrame(frame, hops))))
          else enqueue(() => handle(event))
        }
        const onStopRequest = listenOpts.onStopRequest
        /** A request of the toolbar (top frame) or of its listening part (a frame below). */
        const onToolbar = (frame: WorldFrame, world: RecorderWorld, request: ToolbarRequest) => {
          if (stopped || !onStopRequest || !request || typeof request !== 'object') return
          const placeFrame: FramePlacer = (hops) => world.placeFrame(frame, hops)
          if (request.kind === 'stop') onStopRequest()
          else if (request.kind === 'frames-state') {
            // the top frame's assert mode and editor: every frame below picks and waits as it does
            if (!world.isMainFrame(frame)) return
            toolbarState = { mode: request.mode ?? null, editing: request.editing === true }
            for (const below of world.frames())
              if (!world.isMainFrame(below))
                void world.evaluate(below, setToolbarFrameStateInPage, toolbarState).catch(() => undefined)
          } else if (request.kind === 'frame-signal') {
            const top = world.topFrame()
            if (top && !world.isMainFrame(frame))
              void world.evaluate(top, signalToolbarInPage, request.signal).catch(() => undefined)
          } else if (request.kind === 'hover' && target === page) highlightPick(request, placeFrame, target)
          else if (request.kind === 'assert' && target === page) {
            // the pick ends its mode: a highlight still to draw is dropped
            hoverNext = null
            if (world.isMainFrame(frame)) {
              const picked = readPick(request)
              enqueue(() => pickedAssertion(request, target, picked))
            } else {
              // a pick in a frame below: the toolbar (in the top frame) ends its mode and waits for the editor now,
              // before the queue gets to the pick
              void evaluateInRecorderTop(target, markToolbarPickedInPage, request.assert).catch(() => undefined)
              // the point moved into the top viewport and the element there read at once, as in the top frame
              const placed = (
                request.inFrame === undefined
                  ? Promise.resolve(request)
                  : pointInTopViewport(request, placeFrame, request.inFrame)
              )
                .then((point) => (point ? { ...request, x: point.x, y: point.y } : null))
                .catch(() => null)
              const picked = placed.then((inTop) => (inTop ? readPick(inTop) : null))
              enqueue(async () => {
                const inTop = await placed
                if (inTop) await pickedAssertion(inTop, target, picked)
                else await nothingToAssert(request, target)
              })
            }
          } else if (request.kind === 'assert-confirm')
            enqueue(async () =>
              confirmDraft(request.id, {
                op: request.op === 'contains' ? 'contains' : 'equals',
                expected: String(request.expected ?? ''),
              }),
            )
          else if (request.kind === 'assert-cancel') enqueue(() => cancelDraft(request.id))
        }
        // (the world reports while it is being installed: its calls wait for it)
        let created: RecorderWorld | undefined
        /** A new document of the top frame (set once the page is attached: the document there then is not one). */
        let onMainDocument: ((frame: WorldFrame, world: RecorderWorld) => void) | null = null
        const ready = createRecorderWorld(target, {
          source: recorderWorldSource(bindingName, onStopRequest !== undefined),
          worldName,
          bindingName,
          onCall(frame, payload) {
            const { channel, message } = (payload ?? {}) as { channel?: string; message?: unknown }
            const dispatch = (world: RecorderWorld) => {
              if (channel === 'input') onInput(frame, world, message as PageInputEvent)
              else if (channel === 'toolbar') onToolbar(frame, world, message as ToolbarRequest)
            }
            if (created) dispatch(created)
            else void ready.then(dispatch, () => undefined)
          },
          onFrame(frame) {
            void ready.then(
              (world) => {
                if (world.isMainFrame(frame)) onMainDocument?.(frame, world)
              },
              () => undefined,
            )
            // a frame that loads while an assert mode or the editor is on picks and waits as the others do
            if (!onStopRequest || (!toolbarState.mode && !toolbarState.editing)) return
            void ready.then(
              (world) =>
                world.isMainFrame(frame) ? undefined : world.evaluate(frame, setToolbarFrameStateInPage, toolbarState),
              () => undefined,
            )
          },
        })
        created = await ready
        worlds.set(target, created)
        dialogWatches.push(
          await watchDialogs(target, (d) => {
            dialogs.push(d)
            attachDialogs()
          }),
        )
        attached.push(target)
        if (screenshots) {
          const frames = await startFrameBuffer(target)
          if (frames) buffers.set(target, frames)
        }
        // Back and forward (the browser's buttons, Alt+Left): each new document of the top frame tells how it was
        // reached (`history-move.ts`); a move is recorded as a navigate to the URL it reached (a replay goes there).
        let history = await historyOf(target)
        onMainDocument = (frame, world) => {
          if (stopped || target !== page) return
          // read at once, in the world of that very document: the person may go on before the queue gets here
          const arrivedAt = Date.now()
          const activation = world.evaluate(frame, navigationActivationInPage, undefined).catch(() => null)
          const reading = historyOf(target)
          enqueue(async () => {
            const [told, now] = await Promise.all([activation, reading])
            const fromDocument = told ? activationMove(told) : 'unknown'
            const moved =
              fromDocument === 'unknown' ? (now && history ? historyMove(history, now) : null) : fromDocument
            history = now ?? history
            if (!moved) return
            typing = null
            const url = told?.url ?? target.url()
            const action: Action = { timestamp: Date.now(), ...historyStep(moved, url) }
            // the keys that went back (Alt+Left) were recorded as a key press: the navigate takes its place
            const byKeys = historyKeysBefore(actions.at(-1))
            if (byKeys) actions.pop()
            pushStep(action, byKeys)
            setShot(action, 'after', await afterShot(actions.indexOf(action), arrivedAt))
          })
        }
        target.on('popup', (opened) => {
          if (stopped || target !== page) return
          // listen at once, not when the queue reaches the switch: a person clicks in the new page while the
          // opener's step is still being written, and that click must not be lost
          opening.add(opened)
          const listening = attach(opened).catch(() => undefined)
          enqueue(async () => {
            const opener = actions.at(-1)
            typing = null
            await switchTo(opened)
            opening.delete(opened)
            await listening
            if (opener && isClickLike(opener)) {
              opener.opensPage = true
              opener.description = `${opener.description} (opens a new page)`
              const after = await shot(actions.indexOf(opener), 'after')
              if (after) opener.screenshotPath = after
            }
          })
        })
      }
      await attach(page)
      // Fill in the final screenshots of typed fields when they are done.
      return {
        async stop() {
          stopped = true
          await queue
          // Stopped while the toolbar's editor was open (its Stop button, Ctrl-C, the window closed, the browser
          // gone): the assertion is kept as the editor holds it, never dropped silently; its warning (in the live
          // list of steps) says it was not confirmed.
          for (const [id, draft] of [...drafts]) {
            const held = draft.target.isClosed()
              ? null
              : await evaluateInRecorderTop(draft.target, readToolbarEditorInPage, undefined).catch(() => null)
            const edit = held && held.id === id ? { op: held.op, expected: String(held.expected ?? '') } : null
            confirmDraft(id, edit, true)
          }
          for (const frames of buffers.values()) await frames.stop()
          buffers.clear()
          attachDialogs()
          for (const w of dialogWatches.splice(0)) await w.dispose()
          if (listenOpts.onStopRequest)
            for (const p of attached)
              if (!p.isClosed()) {
                await evaluateInRecorderTop(p, removeRecorderToolbarInPage, undefined).catch(() => undefined)
                const world = worlds.get(p)
                for (const below of world?.frames() ?? [])
                  if (!world?.isMainFrame(below))
                    await world
                      ?.evaluate(below, setToolbarFrameStateInPage, { mode: null, editing: false })
                      .catch(() => undefined)
              }
          // the recorder's world goes with the recording: no binding, no script in the documents to come
          for (const world of worlds.values()) await world.dispose().catch(() => undefined)
          worlds.clear()
        },
      }
    },

    async close() {
      await reader.detach()
    },
  }
  return recorder
}
