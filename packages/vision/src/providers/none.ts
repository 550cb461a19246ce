import type { VisionProvider } from '../types'
import { assertNotAborted, unsupported } from './common'

/** Sees nothing: empty analyses, so callers fall back to coordinates. Cannot judge comparisons or transitions. */
export function noneProvider(): VisionProvider {
  return {
    name: 'none',
    async ask(question, opts) {
      assertNotAborted('none', opts?.signal)
      if (question.task === 'screen') return { provider: 'none', data: { elements: [] } }
      if (question.task === 'element') return { provider: 'none', data: { element: null } }
      throw unsupported('none', question.task)
    },
  }
}
