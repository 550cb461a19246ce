import { fc, test as propTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { caseFolder, fakeReplayer, fakeWriter, tempDir } from './testing/fakes'
import { fileRunStore, memoryRunStore } from './run-store'
import { createRunner, latestSuiteStates, suiteSlug } from './runner'
import type { RunnerEvent } from './run-types'
import { scanSuites } from './suite-catalog'

describe('createRunner', () => {
  it('runs every suite, streams events in order, and reports failures with their errors', async () => {
    const dir = caseFolder(['로그인', '검색', '설정'])
    const { suites } = await scanSuites(dir)
    const runner = createRunner({
      replayers: { web: fakeReplayer({ failing: ['검색'] }) },
      reportDir: tempDir(),
      store: memoryRunStore(),
      writeReports: fakeWriter,
    })
    const events: RunnerEvent[] = []
    runner.onEvent((e) => events.push(e))
    const queued = runner.enqueue(suites, { all: true })
    expect(['queued', 'running']).toContain(queued.status)
    expect(runner.isRunning()).toBe(true)
    const run = await runner.waitFor(queued.id)
    expect(run.status).toBe('done')
    expect(run.passed).toBe(false)
    expect(run.suites.map((s) => [s.name, s.status, s.passed])).toEqual([
      ['로그인', 'done', true],
      ['검색', 'done', false],
      ['설정', 'done', true],
    ])
    const failed = run.suites[1]!
    expect(failed.steps[1]).toEqual({
      action: 'click',
      detail: 'Click step 1',
      passed: false,
      error: 'Element not found: button "저장"',
    })
    expect(failed.reports.html).toMatch(/^runs\/[^/]+\/001\/report\.html$/)
    const types = events.map((e) => e.type)
    expect(types[0]).toBe('run-queued')
    expect((events[0] as { run: { status: string } }).run.status).toBe('queued')
    expect(types[1]).toBe('run-started')
    expect(types.at(-1)).toBe('run-finished')
    expect(types.filter((t) => t === 'step-done')).toHaveLength(6)
    expect(runner.isRunning()).toBe(false)
  })

  it('a suite that throws (app down) fails with an error step; the others pass and the runner keeps working', async () => {
    const dir = caseFolder(['a', 'down', 'c'])
    const { suites } = await scanSuites(dir)
    const runner = createRunner({
      replayers: { web: fakeReplayer({ throwing: ['down'] }) },
      reportDir: tempDir(),
      store: memoryRunStore(),
      writeReports: fakeWriter,
    })
    const run = await runner.waitFor(runner.enqueue(suites).id)
    const down = run.suites[1]!
    expect(down.passed).toBe(false)
    expect(down.error).toMatch(/ERR_CONNECTION_REFUSED/)
    expect(down.steps).toEqual([{ action: 'error', detail: 'case-01.json', passed: false, error: down.error }])
    expect(run.suites.filter((s) => s.passed).map((s) => s.name)).toEqual(['a', 'c'])
    const again = await runner.waitFor(runner.enqueue([suites[0]!]).id)
    expect(again.passed).toBe(true)
  })

  it('never runs more suites at once than its concurrency', async () => {
    const dir = caseFolder(['1', '2', '3', '4', '5', '6'], 1)
    const { suites } = await scanSuites(dir)
    let peak = 0
    const runner = createRunner({
      replayers: { web: fakeReplayer({ stepDelayMs: 15, onActive: (n) => (peak = Math.max(peak, n)) }) },
      reportDir: tempDir(),
      store: memoryRunStore(),
      writeReports: fakeWriter,
      concurrency: 2,
    })
    const a = runner.enqueue(suites.slice(0, 3))
    const b = runner.enqueue(suites.slice(3))
    await Promise.all([runner.waitFor(a.id), runner.waitFor(b.id)])
    expect(peak).toBe(2)
  })

  it('fails a platform without a replayer with a clear error', async () => {
    const dir = tempDir()
    const { writeCase } = await import('./testing/fakes')
    writeCase(dir, 'game.json', '게임 시작', 1, 'desktop')
    const { suites } = await scanSuites(dir)
    const runner = createRunner({
      replayers: {},
      reportDir: tempDir(),
      store: memoryRunStore(),
      writeReports: fakeWriter,
    })
    const run = await runner.waitFor(runner.enqueue(suites).id)
    expect(run.suites[0]!.error).toMatch(/desktop case, and this server has no desktop replayer/)
  })

  it('cancels queued and running suites', async () => {
    const dir = caseFolder(['slow-1', 'slow-2', 'slow-3'], 20)
    const { suites } = await scanSuites(dir)
    const runner = createRunner({
      replayers: { web: fakeReplayer({ stepDelayMs: 20 }) },
      reportDir: tempDir(),
      store: memoryRunStore(),
      writeReports: fakeWriter,
    })
    const queued = runner.enqueue(suites)
    await new Promise((r) => setTimeout(r, 50))
    expect(runner.cancel(queued.id)).toBe(true)
    const run = await runner.waitFor(queued.id)
    expect(run.status).toBe('canceled')
    expect(run.suites.every((s) => s.status === 'done' && !s.passed)).toBe(true)
    expect(run.suites[2]!.error).toBe('The run was canceled.')
    expect(runner.cancel(queued.id)).toBe(false)
  })

  it('stops a suite that exceeds its timeout', async () => {
    const dir = caseFolder(['hangs'], 50)
    const { suites } = await scanSuites(dir)
    const runner = createRunner({
      replayers: { web: fakeReplayer({ stepDelayMs: 50 }) },
      reportDir: tempDir(),
      store: memoryRunStore(),
      writeReports: fakeWriter,
      suiteTimeoutMs: 60,
    })
    const run = await runner.waitFor(runner.enqueue(suites).id)
    expect(run.suites[0]!.error).toMatch(/did not finish within/)
  })

  it('persists runs so that a new runner (a restart) shows them, and marks unfinished ones interrupted', async () => {
    const dir = caseFolder(['x', 'y'])
    const { suites } = await scanSuites(dir)
    const reportDir = tempDir()
    const store = fileRunStore(reportDir)
    const first = createRunner({ replayers: { web: fakeReplayer() }, reportDir, store, writeReports: fakeWriter })
    const done = await first.waitFor(first.enqueue(suites).id)
    await first.close()
    const slow = createRunner({
      replayers: { web: fakeReplayer({ stepDelayMs: 1000 }) },
      reportDir,
      store,
      writeReports: fakeWriter,
    })
    const cut = slow.enqueue(suites)
    await new Promise((r) => setTimeout(r, 50))
    await store.save({ ...slow.getRun(cut.id)!, status: 'running' })

    const loaded = await fileRunStore(reportDir).loadAll()
    const again = createRunner({ replayers: {}, reportDir, store, writeReports: fakeWriter, initialRuns: loaded })
    const restored = again.getRun(done.id)!
    expect(restored.passed).toBe(true)
    expect(again.getRun(cut.id)!.status).toBe('interrupted')
    expect(latestSuiteStates(suites, [restored]).map((s) => [s.status, s.passed])).toEqual([
      ['done', true],
      ['done', true],
    ])
    await slow.close()
  })
})

describe('latestSuiteStates', () => {
  it('is planned for a suite that never ran, else the newest run of that case', async () => {
    const dir = caseFolder(['a', 'b'])
    const { suites } = await scanSuites(dir)
    const runner = createRunner({
      replayers: { web: fakeReplayer({ failing: ['a'] }) },
      reportDir: tempDir(),
      store: memoryRunStore(),
      writeReports: fakeWriter,
    })
    await runner.waitFor(runner.enqueue([suites[0]!]).id)
    const states = latestSuiteStates(suites, runner.listRuns())
    expect(states.map((s) => [s.name, s.status, s.passed])).toEqual([
      ['a', 'done', false],
      ['b', 'planned', false],
    ])
  })
})

// Report folder names must stay inside the run folder whatever the suite is called.
propTest.prop([fc.nat({ max: 999 }), fc.string({ maxLength: 80 })], { numRuns: 100 })(
  'suiteSlug is a single safe path segment',
  (index, name) => {
    const slug = suiteSlug(index, name)
    expect(slug).toMatch(/^\d{3}(-[\w-]+)?$/)
    expect(slug).not.toContain('..')
  },
)
