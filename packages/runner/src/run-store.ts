import { mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '@qa/model/node'
import type { RunRecord } from './run-types'

/** Persistence of run records: one JSON file per run under `<reportDir>/runs/`. */
export interface RunStore {
  save(run: RunRecord): Promise<void>
  loadAll(): Promise<RunRecord[]>
}

const RUN_ID = /^[\w.-]+$/

/** Marks what a previous server process left unfinished as interrupted (pure). */
export function reviveRun(run: RunRecord, now = new Date().toISOString()): RunRecord {
  if (run.status !== 'queued' && run.status !== 'running') return run
  return {
    ...run,
    status: 'interrupted',
    passed: false,
    finishedAt: run.finishedAt ?? now,
    suites: run.suites.map((s) =>
      s.status === 'done'
        ? s
        : {
            ...s,
            status: 'done',
            passed: false,
            error: 'The server stopped before this suite finished.',
            finishedAt: s.finishedAt ?? now,
          },
    ),
  }
}

function isRunRecord(v: unknown): v is RunRecord {
  const r = v as RunRecord
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.id === 'string' &&
    RUN_ID.test(r.id) &&
    typeof r.createdAt === 'string' &&
    Array.isArray(r.suites)
  )
}

/** Run files in `<reportDir>/runs`, written atomically; unreadable files are skipped on load. */
export function fileRunStore(reportDir: string): RunStore {
  const dir = join(reportDir, 'runs')
  // Writes of one run are chained so that an older state never lands after a newer one.
  const chains = new Map<string, Promise<void>>()
  return {
    save(run) {
      const text = `${JSON.stringify(run, null, 2)}\n`
      const prev = chains.get(run.id) ?? Promise.resolve()
      const next = prev
        .then(() => mkdir(dir, { recursive: true }))
        .then(() => writeFileAtomic(join(dir, `${run.id}.json`), text, { overwrite: true }))
        .catch(() => undefined)
      chains.set(run.id, next)
      return next
    },
    async loadAll() {
      const names = await readdir(dir).catch(() => [] as string[])
      const runs: RunRecord[] = []
      for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
        try {
          const doc = JSON.parse(await readFile(join(dir, name), 'utf8')) as unknown
          if (isRunRecord(doc)) runs.push(reviveRun(doc))
        } catch {
          // A torn or foreign file: ignore it; the run list shows what could be read.
        }
      }
      return runs.sort((a, b) =>
        a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
      )
    },
  }
}

/** A store that keeps nothing (tests, `--no-persist`). */
export function memoryRunStore(initial: RunRecord[] = []): RunStore & { saved: Map<string, RunRecord> } {
  const saved = new Map(initial.map((r) => [r.id, structuredClone(r)]))
  return {
    saved,
    async save(run) {
      saved.set(run.id, structuredClone(run))
    },
    async loadAll() {
      return [...saved.values()].map((r) => reviveRun(structuredClone(r)))
    },
  }
}
