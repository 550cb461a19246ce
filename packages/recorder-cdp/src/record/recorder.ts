import { mkdir } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { type Action, CURRENT_FORMAT_VERSION, type TestCase } from '@qa/model'
import { saveTestCase, screenshotFolderOf } from '@qa/model/node'
import type { Page } from 'playwright-core'
import { type CapturedElement, type CdpIdentityReader, createCdpIdentityReader } from '../browser/cdp-identity'
import { secretFieldsOf } from '../browser/cdp-secret-fields'
import { gotoOrExplain } from '../browser/browser'
import { settle } from '../browser/settle'
import { DEFAULT_SECRET_PREFIX } from '../devtools/secret'
import { createSecretNamer, fieldRef } from './secret-names'
import { listenByHand } from './listen-by-hand'
import type { ListenOptions, RecorderCore } from './recorder-core'
import { createStepShots, setShot } from './step-shots'
import { round2 } from './hand-events'
import type { PointerDownSnapshot } from './page-input-event'
import { isSameElement, targetAtPointerDown } from './pointer-down-target'
import { elementLabel } from './element-label'
import { assertInViewport } from '../browser/in-viewport'
import { adoptPage, watchNewPages } from '../browser/new-page'
import type { ScriptAssertStep, ScriptStep } from './script'
import { captureAssertion } from './record-assertion'
import { pageAssertionProbe, pollAssertion } from '../replay/assert-step'

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

export type { ListenOptions, RecordedStep } from './recorder-core'

/** Keys that change a field's text: a character (with or without Shift), deleting. */
const EDITING_KEY = /^(?:Shift\+)?(?:.|Backspace|Delete|Space)$/u

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
  const secretPrefix = opts.secretEnvPrefix ?? DEFAULT_SECRET_PREFIX
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
  const { shot, shotWithBytes, frameShot, frameBefore, pointerDownShot, crop } = createStepShots({
    currentPage: () => page,
    caseDir,
    assetsDir,
    screenshots,
  })

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
    const after = await shotWithBytes(index, 'after')
    const action: Action = { timestamp: Date.now(), ...partial }
    if (opened) {
      action.opensPage = true
      action.description = `${action.description} (opens a new page)`
    }
    setShot(action, 'before', before)
    if (elementCrop) action.elementCropPath = elementCrop
    setShot(action, 'after', after)
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
      setShot(previous, 'after', await shotWithBytes(actions.length - 1, 'after'))
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

  const core: RecorderCore = {
    get page() {
      return page
    },
    actions,
    caseDir,
    screenshots,
    quietMs,
    settleTimeoutMs,
    viewport,
    readerFor,
    shot,
    shotWithBytes,
    frameShot,
    frameBefore,
    pointerDownShot,
    crop,
    withTarget,
    describeTarget,
    clickTarget,
    isSecretField,
    secretName,
    switchTo,
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

    listen(listenOpts = {}) {
      return listenByHand(core, listenOpts)
    },

    async close() {
      await reader.detach()
    },
  }
  return recorder
}
