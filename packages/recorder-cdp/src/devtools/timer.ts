/** A pause as DevTools documents it: a `waitForExpression` that resolves after a timer. */

const TIMER_RE =
  /^\s*new\s+Promise\s*\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*\{?\s*setTimeout\s*\(\s*\(\s*\)\s*=>\s*\1\s*\(\s*true\s*\)\s*,\s*(\d+)\s*\)\s*;?\s*\}?\s*\)\s*;?\s*$/

/** `new Promise(resolve => setTimeout(() => resolve(true), 500))` → 500 (how DevTools documents a pause). */
export function timerExpressionMs(expression: string): number | null {
  const m = TIMER_RE.exec(expression)
  return m ? Number(m[2]) : null
}
export const timerExpression = (ms: number) => `new Promise(resolve => setTimeout(() => resolve(true), ${ms}))`
