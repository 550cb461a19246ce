import { type TestInfo, test } from '@playwright/test'

/** The running Playwright test, or null outside one (a script, a vitest test driving Playwright itself). */
export function currentTestInfo(): TestInfo | null {
  try {
    return test.info()
  } catch {
    return null
  }
}

/** Attaches JSON to the running test (no-op outside a test). */
export async function attachJson(name: string, value: unknown): Promise<void> {
  await currentTestInfo()?.attach(name, { body: JSON.stringify(value, null, 2), contentType: 'application/json' })
}

/**
 * Runs `fn` as one boxed step of the running test (its inner page calls folded under `title` in the report,
 * errors pointing at the caller), or plainly outside a test.
 */
export async function inStep<T>(title: string, fn: () => Promise<T>): Promise<T> {
  return currentTestInfo() ? test.step(title, fn, { box: true }) : fn()
}
