import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Action } from '@qa/model'
import type { Page } from 'playwright-core'
import type { CapturedElement } from '../browser/cdp-identity'
import type { FrameBuffer } from '../browser/cdp-frame-buffer'
import { evaluateInRecorderTop } from '../browser/cdp-recorder-world'
import { secretFieldsOf, type ViewportBox } from '../browser/cdp-secret-fields'
import {
  clickOfPointerDown,
  continueTyping,
  doubleClickDescription,
  doubleClickPair,
  dragDescription,
  draggedDescription,
  dragOwner,
  fieldKey,
  filesDescription,
  filesOwner,
  keyStep,
  nextInput,
  type ReachedInput,
  replacesClickBefore,
  round2,
  scrollStep,
  typingKey,
  typingPoint,
} from './hand-events'
import type { HoverReveal, PageInputEvent, PointerDownSnapshot } from './page-input-event'
import { isSameElement, targetAtPointerDown } from './pointer-down-target'
import { fieldRef } from './secret-names'
import { setShot, type Shot } from './step-shots'
import { nativeListArea, opensNativeListFor } from './step-pairs'
import type { OpenTyping } from './hand-events'
import type { RecordedStep, RecorderCore } from './recorder-core'

/** What the steps of recording by hand are made with: the recorder, and the listening's state and moments. */
export interface HandStepContext {
  core: RecorderCore
  /** Each attached page's recent screencast frames. */
  buffers: ReadonlyMap<Page, FrameBuffer>
  /** When each click was pressed (its pointer-down's time, stamped on arrival). */
  pressedAt: Map<Action, number>
  /** Each pointer-down's time as the page sent it → as stamped on arrival. */
  pageDownAt: ReadonlyMap<number, number>
  /** What the page described at each click's pointer-down. */
  downSnapshots: Map<Action, PointerDownSnapshot>
  /** Every input as it reached the page, in order of arrival. */
  inputs: readonly ReachedInput[]
  masksAt(atMs: number): ViewportBox[]
  afterShot(index: number, stepAt: number | undefined): Promise<Shot | undefined>
  attachDialogs(): void
  pushStep(action: Action, replaced?: boolean): void
  /** The typing step still open (the toolbar's picks and history moves close it too). */
  open: { typing: OpenTyping | null }
  onStep?: (step: RecordedStep) => void
}

/**
 * Makes each input the page reported a step, in order (the listening queue calls it): what `hand-events.ts` decides,
 * with the element read over CDP and the screenshots of the moments around it.
 */
export function createHandStepHandler(ctx: HandStepContext): (event: PageInputEvent) => Promise<void> {
  const {
    core,
    buffers,
    pressedAt,
    pageDownAt,
    downSnapshots,
    inputs,
    masksAt,
    afterShot,
    attachDialogs,
    pushStep,
    open,
    onStep,
  } = ctx
  const {
    actions,
    caseDir,
    viewport,
    readerFor,
    pointerDownShot,
    frameBefore,
    crop,
    withTarget,
    describeTarget,
    clickTarget,
    isSecretField,
    secretName,
  } = core
  /**
   * A pick in the native list the previous click opened: where the list was drawn, the screenshots show what the
   * person's resting pointer made of the page under it (a field's hover look), which no replay repeats; those
   * pixels are unknown in both of the pick's screenshots (`nativeListArea`), never compared.
   */
  const markNativeListUnknown = async (action: Action) => {
    const box = action.identity?.boundingBox
    const view = await evaluateInRecorderTop(
      core.page,
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
    const frames = buffers.get(core.page)
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
  const handle = async (event: PageInputEvent) => {
    switch (event.kind) {
      case 'pointerdown': {
        open.typing = null
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
        const beforeShot = await pointerDownShot(
          index,
          buffers.get(core.page),
          event.at,
          event.snapshot,
          masksAt,
        ).catch(() => undefined)
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
        open.typing = null
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
        onStep?.({ index, action: owner, replaced: true })
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
        onStep?.({ index, action: first, replaced: true })
        setShot(first, 'after', await afterShot(index, event.at ?? event.receivedAt))
        break
      }
      case 'files': {
        open.typing = null
        // the files go with the step that opened the chooser: the last click (or key) before they were chosen
        const owner = filesOwner(actions, event.names)
        if (!owner) break
        owner.files = event.names
        owner.description = filesDescription(owner.description, event.names)
        break
      }
      case 'input': {
        const key = typingKey(event, core.page.url())
        const stepAt = event.at ?? event.receivedAt
        /** The typing's after-screenshot, unless more typing into the same field already reached the page. */
        const typingAfter = async (action: Action) => {
          const next = stepAt === undefined ? undefined : nextInput(inputs, stepAt)
          if (next && next.field === fieldKey(event)) return
          setShot(action, 'after', await afterShot(actions.indexOf(action), stepAt))
        }
        const goesOn = continueTyping(open.typing, actions.at(-1), key, event)
        if (goesOn.kind === 'continue' && open.typing) {
          // a secret stays a secret when the field shows it ("show password")
          if (goesOn.text !== null) open.typing.action.text = goesOn.text
          await typingAfter(open.typing.action)
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
        if (secret && target) secretFieldsOf(core.page).remember(fieldRef(target))
        else if (secret)
          await secretFieldsOf(core.page)
            .rememberFocused()
            .catch(() => null)
        const base: Omit<Action, 'timestamp'> = {
          actionType: 'type',
          ...typingPoint(isField ? target?.identity.boundingBox : undefined, event),
          text: secret ? '********' : event.value,
          description: describeTarget('Type into', target, 'Type'),
        }
        if (secret && target) base.secretEnv = secretName(target.identity, core.page.url())
        const action: Action = { timestamp: Date.now(), ...withTarget(base, target) }
        // the field before the first character reached it, and after the last one
        const index = actions.length
        const before = await frameBefore(index, buffers.get(core.page), stepAt, null, masksAt)
        setShot(action, 'before', before)
        const elementCrop = await crop(index, before, action)
        if (elementCrop) action.elementCropPath = elementCrop
        pushStep(action)
        open.typing = { action, key, secret }
        await typingAfter(action)
        break
      }
      case 'select': {
        open.typing = null
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
        const before = await frameBefore(index, buffers.get(core.page), event.at, null, masksAt)
        setShot(action, 'before', before)
        const elementCrop = await crop(index, before, action)
        if (elementCrop) action.elementCropPath = elementCrop
        pushStep(action)
        setShot(action, 'after', await afterShot(index, event.at ?? event.receivedAt))
        if (opener && opensNativeListFor(opener, action)) await markNativeListUnknown(action)
        break
      }
      case 'key': {
        open.typing = null
        const action: Action = { timestamp: Date.now(), ...keyStep(event) }
        const index = actions.length
        setShot(action, 'before', await frameBefore(index, buffers.get(core.page), event.at, null, masksAt))
        pushStep(action)
        setShot(action, 'after', await afterShot(index, event.at ?? event.receivedAt))
        break
      }
      case 'scroll': {
        open.typing = null
        const action: Action = { timestamp: Date.now(), ...scrollStep(event) }
        const index = actions.length
        setShot(action, 'before', await frameBefore(index, buffers.get(core.page), event.at, null, masksAt))
        pushStep(action)
        setShot(action, 'after', await afterShot(index, event.at ?? event.receivedAt))
        break
      }
    }
  }
  return handle
}
