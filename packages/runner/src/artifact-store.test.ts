import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { assertArtifactKey, localArtifactStore, parseArtifactSpec } from './artifact-store'
import { describeArtifactStore } from './testing/describe-artifact-store'

describe('artifact keys', () => {
  test.each(['runs/a/report.json', 'a', 'a/b/'])('accepts %s', (k) => expect(assertArtifactKey(k)).toBe(k))
  test.each(['', '/etc/passwd', 'a/../b', '..', 'a/./b', 'a\\b', 'a//b', 'a\0b'])('refuses %j', (k) => {
    expect(() => assertArtifactKey(k)).toThrow(/not a valid artifact key/)
  })
})

describe('parseArtifactSpec', () => {
  test('a folder', () => expect(parseArtifactSpec('qa-reports')).toEqual({ kind: 'dir', dir: 'qa-reports' }))
  test('s3 with endpoint, region and path style', () => {
    expect(parseArtifactSpec('s3://qa-artifacts/nightly?endpoint=http://127.0.0.1:9000&region=eu-west-1')).toEqual({
      kind: 's3',
      bucket: 'qa-artifacts',
      prefix: 'nightly/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
    })
    expect(parseArtifactSpec('s3://qa-artifacts?forcePathStyle=false')).toMatchObject({ forcePathStyle: false })
  })
  test('a bad bucket names the flag and the form', () => {
    expect(() => parseArtifactSpec('s3://A_B/x')).toThrow(/--artifacts s3:\/\/A_B\/x: "A_B" is not an S3 bucket name/)
  })
})

describe('localArtifactStore', () => {
  test('put/get/list and directory round trip', async () => {
    const store = localArtifactStore(mkdtempSync(join(tmpdir(), 'qa-store-')))
    await store.put('runs/r1/001/report.json', '{"a":1}')
    expect(new TextDecoder().decode((await store.get('runs/r1/001/report.json')) as Uint8Array)).toBe('{"a":1}')
    expect(await store.get('runs/missing.json')).toBeNull()
    const src = mkdtempSync(join(tmpdir(), 'qa-src-'))
    mkdirSync(join(src, 'shots'))
    writeFileSync(join(src, 'case.json'), '{}')
    writeFileSync(join(src, 'shots', '0.png'), 'png')
    expect(await store.putDir(src, 'runs/r1/002/case/')).toEqual([
      'runs/r1/002/case/case.json',
      'runs/r1/002/case/shots/0.png',
    ])
    expect(await store.list('runs/r1/')).toEqual([
      'runs/r1/001/report.json',
      'runs/r1/002/case/case.json',
      'runs/r1/002/case/shots/0.png',
    ])
    const back = mkdtempSync(join(tmpdir(), 'qa-back-'))
    expect(await store.getDir('runs/r1/002/case/', back)).toEqual([
      join(back, 'case.json'),
      join(back, 'shots', '0.png'),
    ])
    await expect(store.put('../escape', 'x')).rejects.toThrow(/not a valid artifact key/)
  })
})

// the folder store against the shared contract (the S3 store runs it against s3rver in @qa/api's e2e tests)
describeArtifactStore('local folder', () => localArtifactStore(mkdtempSync(join(tmpdir(), 'qa-artifacts-'))))
