/**
 * Page functions as Node hands them to the page. The page code of this folder is written as modules that share
 * helpers; `page-bundle.generated.ts` holds each page function bundled with the helpers it uses. What Node passes
 * to `evaluate` (Playwright sends `String(fn)`) or splices into a `Runtime.callFunctionOn` declaration
 * (`${fn.toString()}`) is that bundled source.
 */
import { PAGE_SOURCES } from './page-bundle.generated'

/** The name of a bundled page function (`PAGE_FUNCTIONS` of `scripts/bundle-injected.ts`). */
export type PageFunctionName = keyof typeof PAGE_SOURCES

/**
 * The page function `name`, typed as its module's function `F`: its `toString()` is the bundled, self-contained
 * source, called with the same `this` and arguments. Node never runs it (calling it throws).
 */
export function pageFunction<F extends (...args: never[]) => unknown>(name: PageFunctionName): F {
  const source: string = PAGE_SOURCES[name]
  const fn = () => {
    throw new Error(`${name} runs in the page: pass it to evaluate`)
  }
  fn.toString = () => source
  return fn as unknown as F
}
