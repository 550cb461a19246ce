import { Queue, QueueEvents } from 'bullmq'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localArtifactStore } from './artifact-store'
import { bullmqConnection } from './bullmq-job-runner'
import { QUEUE_KEY_PREFIX, queueNameFor, type SuiteJobData, type SuiteJobResult } from './queue-protocol'
import { type QueueWorkerHandle, startQueueWorker } from './queue-worker'
import { caseFolder, fakeReplayer, fakeWriter, tempDir } from './testing/fakes'
import { startTestRedis, type TestRedis } from './testing/redis-server'

/**
 * A job is data anyone with the queue's Redis can write. A worker replays only the case file
 * the job names inside the case folder it fetched from the artifact store; a forged `caseFileName` pointing
 * elsewhere on the worker's disk is refused, and nothing of that file reaches the result.
 */
let redis: TestRedis
let worker: QueueWorkerHandle
let queue: Queue
let events: QueueEvents
let replayed: string[]
const artifacts = localArtifactStore(tempDir('qa-worker-store-'))

beforeAll(async () => {
  redis = await startTestRedis()
  // the store holds one real case under the prefix the forged jobs name
  const cases = caseFolder(['real'], 1)
  await artifacts.putDir(cases, 'runs/forged/s0/case/')
  replayed = []
  const replay = fakeReplayer()
  worker = await startQueueWorker({
    url: redis.url,
    replayers: {
      web: (input) => {
        replayed.push(input.caseFile)
        return replay(input)
      },
    },
    artifacts,
    workerId: 'w-forged',
    writeReports: fakeWriter,
  })
  const connection = bullmqConnection(redis.url)
  queue = new Queue(queueNameFor('web'), { connection, prefix: QUEUE_KEY_PREFIX })
  events = new QueueEvents(queueNameFor('web'), { connection, prefix: QUEUE_KEY_PREFIX })
  await events.waitUntilReady()
})
afterAll(async () => {
  await worker?.close({ force: true })
  await queue?.close()
  await events?.close()
  await redis?.stop()
})

const job = (caseFileName: string, n: number): SuiteJobData => ({
  runId: `forged-${n}`,
  suite: { index: 0, name: 'real', file: 'case-00.json', platform: 'web', tags: [], steps: [] },
  inputPrefix: 'runs/forged/s0/case/',
  caseFileName,
  outputPrefix: `runs/forged-${n}/s0/`,
  maxAttempts: 1,
  retryFailed: false,
  suiteTimeoutMs: 30_000,
})

describe('a forged queue job', () => {
  it('naming a file outside its case folder is refused, and that file is never read', async () => {
    const forged = ['../../../../../../etc/passwd', '/etc/passwd', '../case/../../../etc/hostname', '.', '']
    for (const [n, name] of forged.entries()) {
      const added = await queue.add('suite', job(name, n), { attempts: 1 })
      const result = (await added.waitUntilFinished(events)) as SuiteJobResult
      expect(result.passed).toBe(false)
      expect(result.error).toMatch(/outside its own case folder or one that is not there \(.*\); it was not replayed/)
      expect(JSON.stringify(result)).not.toMatch(/root:x?:0:0/)
    }
    expect(replayed).toEqual([])
  })

  it('naming its own case is replayed (the check refuses only what leaves the folder)', async () => {
    const added = await queue.add('suite', job('case-00.json', 99), { attempts: 1 })
    const result = (await added.waitUntilFinished(events)) as SuiteJobResult
    expect(result.error).toBeNull()
    expect(replayed).toHaveLength(1)
    expect(replayed[0]).toMatch(/case-00\.json$/)
  })
})
