import { access } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { FileChooser, Page } from 'playwright-core'
import { WebError } from '../errors'

/**
 * The files a replayed step gives to the file chooser it opens: the recorded names, in the folder named at replay
 * (`qa replay --files-dir`). A name missing there fails the step before anything is clicked, naming the file.
 */
export async function filesForStep(names: readonly string[], dir: string): Promise<string[]> {
  const paths = names.map((name) => resolve(dir, name))
  for (const [k, path] of paths.entries()) {
    const found = await access(path).then(
      () => true,
      () => false,
    )
    if (!found)
      throw new WebError(
        'WEB_FILE_MISSING',
        `The file "${names[k]}" the step chooses is not in ${dir} (looked for ${path}); put it there, or name the folder that holds it with --files-dir.`,
        {
          hint: 'Put the file there, or name the folder that holds the files with --files-dir (config: replay.filesDir).',
        },
      )
  }
  return paths
}

/**
 * Answers the file chooser a replayed step opens with the given files (Playwright's `setFiles` on the input it
 * belongs to). `settle()` waits for the chooser (up to `timeoutMs`) and fails when none opened.
 */
export function answerFileChooser(
  page: Page,
  paths: readonly string[],
  timeoutMs: number,
): { settle(label: string): Promise<void>; dispose(): void } {
  let chooser: FileChooser | null = null
  let answered: Promise<void> | null = null
  const onChooser = (c: FileChooser) => {
    chooser = c
    answered = c.setFiles([...paths])
  }
  page.on('filechooser', onChooser)
  return {
    async settle(label) {
      const until = Date.now() + timeoutMs
      while (!chooser && Date.now() < until && !page.isClosed()) await new Promise((r) => setTimeout(r, 50))
      if (!answered)
        throw new WebError('WEB_FILE_CHOOSER_MISSING', `${label} was recorded opening a file chooser, and none opened.`)
      await answered
    },
    dispose: () => page.off('filechooser', onChooser),
  }
}
