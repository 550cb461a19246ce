import { describe, expect, test } from 'vitest'
import { caseFolder, fakeReplayer, fakeWriter, tempDir, writeCase } from './testing/fakes'
import { replayFolder } from './replay-folder'

describe('replayFolder', () => {
  test('shards of a folder together run every case once, and their merged reports count every step', async () => {
    const dir = caseFolder(['가', '나', '다', '라', '마'], 3)
    const seen: string[] = []
    let total = 0
    for (let k = 1; k <= 2; k++) {
      const out = await replayFolder({
        dir,
        shard: { k, n: 2 },
        replayers: { web: fakeReplayer({ failing: ['다'] }) },
        reportDir: tempDir(),
        writeReports: fakeWriter,
      })
      seen.push(...out.suites.map((s) => s.file))
      total += out.merged?.totalActions ?? 0
      expect(out.passed).toBe(!out.suites.some((s) => s.name === '다'))
    }
    expect(seen.sort()).toEqual(['case-00.json', 'case-01.json', 'case-02.json', 'case-03.json', 'case-04.json'])
    expect(total).toBe(15)
  })

  test('a case that cannot run fails the shard with one failed step naming the error', async () => {
    const dir = tempDir()
    writeCase(dir, 'a.json', 'ok')
    writeCase(dir, 'b.json', 'down')
    const out = await replayFolder({
      dir,
      replayers: { web: fakeReplayer({ throwing: ['down'] }) },
      reportDir: tempDir(),
      writeReports: fakeWriter,
    })
    expect(out.passed).toBe(false)
    expect(out.merged?.failedCount).toBe(1)
    expect(out.merged?.verificationResults.find((v) => v.finalResult === 'fail')?.reason).toMatch(/ERR_CONNECTION/)
  })
})
