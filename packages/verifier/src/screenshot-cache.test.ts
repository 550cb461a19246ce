import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { syntheticFrame, toPng } from './__tests__/images'
import { createScreenshotCache } from './screenshot-cache'

test('decodes once, re-decodes when the file changes, drops the least recently used, forgets failures', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-verifier-cache-'))
  const [a, b, c] = ['a.png', 'b.png', 'c.png'].map((n) => join(dir, n)) as [string, string, string]
  for (const [i, p] of [a, b, c].entries()) writeFileSync(p, await toPng(syntheticFrame(16, 8, i + 1)))
  const cache = createScreenshotCache({ maxEntries: 2 })
  const first = await cache.get(a)
  expect(await cache.get(a)).toBe(first)
  writeFileSync(a, await toPng(syntheticFrame(20, 8, 9)))
  utimesSync(a, new Date(), new Date(Date.now() + 5000))
  const changed = await cache.get(a)
  expect(changed).not.toBe(first)
  expect(changed.width).toBe(20)
  await cache.get(b)
  await cache.get(c) // evicts a
  expect(cache.size).toBe(2)
  expect(await cache.get(c)).toBe(await cache.get(c))
  await expect(cache.get(join(dir, 'missing.png'))).rejects.toMatchObject({ code: 'VERIFIER_FILE_NOT_FOUND' })
  expect(cache.size).toBe(2)
})
