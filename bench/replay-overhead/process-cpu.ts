/**
 * Where the machine's CPU goes while a configuration runs, by kind of process: every process's user + system time
 * is read from `/proc/<pid>/stat` every 200 ms and the growth seen per process is summed by kind (the qa Node
 * process, Chromium's browser, renderer, GPU and utility processes, anything else). A process that starts and
 * exits between two looks is missed, so the sums are a lower bound; the kinds' shares are what the figure is for.
 */
import { readdir, readFile } from 'node:fs/promises'

const TICK_MS = 10 // Linux clock ticks are 100 per second

/** The kind of a process from its command line. */
function kindOf(cmdline: string): string {
  if (/chrom(e|ium)/i.test(cmdline)) {
    const type = /--type=([a-z-]+)/.exec(cmdline)?.[1]
    if (!type) return 'chromium browser'
    if (type === 'renderer') return 'chromium renderer'
    if (type === 'gpu-process') return 'chromium gpu'
    if (type === 'zygote') return 'chromium zygote'
    return `chromium ${type}`
  }
  if (/qa\.js/.test(cmdline)) return 'qa (node)'
  if (/node/.test(cmdline)) return 'other node (bench, servers)'
  return 'other'
}

async function snapshot(): Promise<Map<number, { ticks: number; kind: string }>> {
  const out = new Map<number, { ticks: number; kind: string }>()
  const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d))
  await Promise.all(
    pids.map(async (pid) => {
      try {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        // fields[0] is field 3 (state): utime is field 14, stime 15
        const ticks = Number(fields[11]) + Number(fields[12])
        const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replace(/\0/g, ' ')
        out.set(Number(pid), { ticks, kind: kindOf(cmdline) })
      } catch {
        // the process exited meanwhile
      }
    }),
  )
  return out
}

/** Starts looking; `stop()` gives the CPU ms per kind of process seen growing since. */
export function watchProcessCpu(): { stop: () => Promise<Record<string, number>> } {
  const first = new Map<number, number>()
  const last = new Map<number, { ticks: number; kind: string }>()
  let running = true
  const look = async () => {
    for (const [pid, p] of await snapshot()) {
      // a process first seen now started during the run: all of its time counts
      if (!first.has(pid)) first.set(pid, 0)
      // an exited process (a zombie) has no command line left: it keeps the kind it was seen with
      const kind = p.kind === 'other' ? (last.get(pid)?.kind ?? p.kind) : p.kind
      last.set(pid, { ticks: p.ticks, kind })
    }
  }
  const started = snapshot().then((s) => {
    for (const [pid, p] of s) {
      first.set(pid, p.ticks)
      last.set(pid, p)
    }
  })
  const loop = (async () => {
    await started
    while (running) {
      await new Promise((res) => setTimeout(res, 200))
      await look()
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      await look()
      const byKind: Record<string, number> = {}
      for (const [pid, p] of last) {
        const grew = (p.ticks - (first.get(pid) ?? p.ticks)) * TICK_MS
        if (grew > 0) byKind[p.kind] = (byKind[p.kind] ?? 0) + grew
      }
      return byKind
    },
  }
}
