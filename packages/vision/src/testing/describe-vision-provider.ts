import { afterAll, describe, expect, test } from 'vitest'
import { isVisionError } from '../errors'
import { toImagePart } from '../image'
import type { VisionProvider, VisionQuestion, VisionTask } from '../types'
import { renderTextPng } from './render-text'

export interface ContractOptions {
  /** Tasks the provider answers; the others must reject with a VisionError (default: all four). */
  supports?: VisionTask[]
  /** Called once after the suite (stop stubs, close workers). */
  cleanup?: () => Promise<void> | void
}

/**
 * The shared contract every VisionProvider passes (fake, none, bedrock, openai, ocr): a stable name,
 * answers carrying the provider's name and text or data, JSON-serialisable answers (so they can be
 * cached), VisionErrors for what it cannot do, and respect for an aborted signal.
 */
export function describeVisionProvider(
  label: string,
  make: () => VisionProvider | Promise<VisionProvider>,
  opts: ContractOptions = {},
): void {
  const supports = opts.supports ?? ['screen', 'element', 'compare', 'transition']
  describe(`VisionProvider contract: ${label}`, () => {
    let provider: VisionProvider | undefined
    const get = async () => {
      provider ??= await make()
      return provider
    }
    afterAll(async () => {
      await provider?.close?.()
      await opts.cleanup?.()
    })
    const question = async (task: VisionTask): Promise<VisionQuestion> => {
      const png = await renderTextPng([{ text: 'Start 시작', x: 40, y: 80 }], { width: 320, height: 160 })
      const part = await toImagePart(png)
      const images = task === 'compare' || task === 'transition' || task === 'element' ? [part, part] : [part]
      return { task, images, prompt: `contract ${task}`, ...(task === 'element' ? { point: { x: 60, y: 70 } } : {}) }
    }

    test('has a non-empty name', async () => {
      const p = await get()
      expect(typeof p.name).toBe('string')
      expect(p.name.length).toBeGreaterThan(0)
    })

    for (const task of ['screen', 'element', 'compare', 'transition'] as const) {
      if (supports.includes(task)) {
        test(`answers a "${task}" question with its name and text or data, JSON-serialisable`, async () => {
          const p = await get()
          const answer = await p.ask(await question(task))
          expect(answer.provider).toBe(p.name)
          expect(answer.text !== undefined || answer.data !== undefined).toBe(true)
          expect(JSON.parse(JSON.stringify(answer))).toEqual(JSON.parse(JSON.stringify(answer)))
          expect(() => JSON.stringify(answer)).not.toThrow()
        })
      } else {
        test(`rejects a "${task}" question with a VisionError`, async () => {
          const p = await get()
          const error = await p.ask(await question(task)).catch((e: unknown) => e)
          expect(isVisionError(error)).toBe(true)
        })
      }
    }

    test('rejects an already-aborted call with VISION_ABORTED', async () => {
      const p = await get()
      const controller = new AbortController()
      controller.abort()
      const error = await p.ask(await question('screen'), { signal: controller.signal }).catch((e: unknown) => e)
      expect(isVisionError(error) && (error as { code: string }).code).toBe('VISION_ABORTED')
    })
  })
}
