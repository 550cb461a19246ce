import type { VisionAnswer, VisionProvider, VisionQuestion } from '../types'
import { assertNotAborted } from './common'

export interface FakeProviderOptions {
  name?: string
  model?: string
  /**
   * What to answer: a string is model text, an object is JSON the model "wrote", an Error is thrown.
   * Default: an empty screen, no element, a match, a scene change.
   */
  answer?: (question: VisionQuestion, call: number) => unknown
}

export interface FakeProvider extends VisionProvider {
  /** Every question asked, in order. */
  readonly calls: VisionQuestion[]
}

const DEFAULTS: Record<VisionQuestion['task'], unknown> = {
  screen: { screen_state: 'fake', elements: [] },
  element: { element: null },
  compare: { match: true, reason: 'fake provider always matches', confidence: 1 },
  transition: { changed: true, transition_type: 'scene_change', result_state: 'fake' },
}

/** A scripted provider for tests of code that takes a VisionProvider. Answers as model text (JSON). */
export function fakeProvider(opts: FakeProviderOptions = {}): FakeProvider {
  const calls: VisionQuestion[] = []
  const name = opts.name ?? 'fake'
  return {
    name,
    model: opts.model ?? 'fake-1',
    calls,
    async ask(question, callOpts): Promise<VisionAnswer> {
      assertNotAborted(name, callOpts?.signal)
      calls.push(question)
      const out = opts.answer ? await opts.answer(question, calls.length) : DEFAULTS[question.task]
      if (out instanceof Error) throw out
      const text = typeof out === 'string' ? out : JSON.stringify(out)
      return { provider: name, model: opts.model ?? 'fake-1', text, inputTokens: 10, outputTokens: text.length }
    },
  }
}
