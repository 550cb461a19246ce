import { afterAll, describe, expect, test } from 'vitest'
import type { RunStore } from '../run-store'
import type { RunRecord, SuiteRun } from '../run-types'

export interface RunStoreContractOptions {
  /** Called once after the suite (remove temp folders, close connections). */
  cleanup?: () => Promise<void> | void
}

const suite = (over: Partial<SuiteRun>): SuiteRun => ({
  index: 0,
  name: '로그인',
  file: 'login.json',
  platform: 'web',
  status: 'done',
  passed: true,
  steps: [],
  totalSteps: 3,
  error: null,
  reports: { json: 'runs/r/login/report.json' },
  startedAt: '2026-01-01T00:00:01.000Z',
  finishedAt: '2026-01-01T00:00:02.000Z',
  durationMs: 1000,
  ...over,
})

const run = (over: Partial<RunRecord>): RunRecord => ({
  id: 'run-1',
  request: null,
  status: 'done',
  passed: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: '2026-01-01T00:00:00.500Z',
  finishedAt: '2026-01-01T00:00:03.000Z',
  suites: [suite({})],
  ...over,
})

const byId = (runs: RunRecord[]) => [...runs].sort((a, b) => (a.id < b.id ? -1 : 1))

/**
 * The contract every RunStore keeps (memory, file): a saved run loads back as saved, the last save of an id wins,
 * a copy is kept (later edits of the object do not reach the store), and a run a previous process left queued or
 * running loads as interrupted, its unfinished suites failed with the reason. `make` gets a fresh, empty store.
 */
export function describeRunStore(
  label: string,
  make: () => RunStore | Promise<RunStore>,
  opts: RunStoreContractOptions = {},
): void {
  describe(`RunStore contract: ${label}`, () => {
    afterAll(async () => {
      await opts.cleanup?.()
    })

    test('an empty store loads no run', async () => {
      expect(await (await make()).loadAll()).toEqual([])
    })

    test('a finished run loads back as it was saved, Korean names included', async () => {
      const store = await make()
      const saved = run({ id: 'run-a', suites: [suite({ name: '장바구니 담기' })] })
      await store.save(saved)
      const loaded = await store.loadAll()
      expect(loaded).toHaveLength(1)
      expect(loaded[0]?.id).toBe('run-a')
      expect(loaded[0]?.status).toBe('done')
      expect(loaded[0]?.passed).toBe(true)
      expect(loaded[0]?.suites[0]?.name).toBe('장바구니 담기')
      expect(loaded[0]?.suites[0]?.reports).toEqual({ json: 'runs/r/login/report.json' })
      expect(loaded[0]).toEqual(saved)
    })

    test('the last save of a run wins; other runs stay', async () => {
      const store = await make()
      await store.save(run({ id: 'run-b', status: 'running', passed: null, finishedAt: null }))
      await store.save(run({ id: 'run-c' }))
      await store.save(run({ id: 'run-b', status: 'canceled', passed: false }))
      const loaded = byId(await store.loadAll())
      expect(loaded.map((r) => [r.id, r.status, r.passed])).toEqual([
        ['run-b', 'canceled', false],
        ['run-c', 'done', true],
      ])
    })

    test('the store keeps a copy: editing the saved object afterwards changes nothing', async () => {
      const store = await make()
      const saved = run({ id: 'run-d' })
      await store.save(saved)
      saved.status = 'interrupted'
      ;(saved.suites[0] as SuiteRun).name = 'changed'
      const [loaded] = await store.loadAll()
      expect(loaded?.status).toBe('done')
      expect(loaded?.suites[0]?.name).toBe('로그인')
    })

    test('a run left running loads as interrupted, its unfinished suites failed with the reason', async () => {
      const store = await make()
      await store.save(
        run({
          id: 'run-e',
          status: 'running',
          passed: null,
          finishedAt: null,
          suites: [
            suite({ index: 0, name: 'done one' }),
            suite({ index: 1, name: 'half way', status: 'running', passed: false, finishedAt: null }),
          ],
        }),
      )
      const [loaded] = await store.loadAll()
      expect(loaded?.status).toBe('interrupted')
      expect(loaded?.passed).toBe(false)
      expect(loaded?.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
      expect(loaded?.suites[0]).toMatchObject({ status: 'done', passed: true, error: null })
      expect(loaded?.suites[1]).toMatchObject({
        status: 'done',
        passed: false,
        error: 'The server stopped before this suite finished.',
      })
    })
  })
}
