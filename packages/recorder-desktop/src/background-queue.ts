/** A FIFO of async jobs run one at a time in the background; `idle()` resolves when all are done. */
export interface BackgroundQueue {
  push(job: () => Promise<void>): void
  readonly pending: number
  readonly done: number
  idle(): Promise<void>
}

export function createBackgroundQueue(
  onChange?: (done: number, total: number) => void,
  concurrency = 1,
): BackgroundQueue {
  const jobs: (() => Promise<void>)[] = []
  let running = 0
  let done = 0
  let total = 0
  let waiters: (() => void)[] = []
  const pump = () => {
    while (running < concurrency && jobs.length > 0) {
      const job = jobs.shift() as () => Promise<void>
      running++
      void job()
        .catch(() => undefined)
        .finally(() => {
          running--
          done++
          onChange?.(done, total)
          if (running === 0 && jobs.length === 0) {
            const w = waiters
            waiters = []
            for (const r of w) r()
          }
          pump()
        })
    }
  }
  return {
    push(job) {
      jobs.push(job)
      total++
      onChange?.(done, total)
      // start on the next tick: the caller (an input hook callback) returns at once
      setImmediate(pump)
    },
    get pending() {
      return jobs.length + running
    },
    get done() {
      return done
    },
    idle() {
      if (jobs.length === 0 && running === 0) return Promise.resolve()
      return new Promise((r) => waiters.push(r))
    },
  }
}
