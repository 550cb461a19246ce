import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileRunStore, memoryRunStore } from './run-store'
import { describeRunStore } from './testing/describe-run-store'

// the fake and the real store keep the same contract (no Redis run store exists: BullMQ runs persist through one
// of these)
describeRunStore('memory', () => memoryRunStore())

const dirs: string[] = []
describeRunStore(
  'file (one JSON file per run)',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qa-run-store-'))
    dirs.push(dir)
    return fileRunStore(dir)
  },
  { cleanup: async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))).then(() => undefined) },
)
