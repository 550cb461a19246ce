import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { s3ArtifactStore } from '@qa/runner'
import { describeArtifactStore } from '@qa/runner/testing'

// the S3 store against the contract the folder store keeps (runner's artifact-store.test.ts), on a real S3 API:
// s3rver on loopback
let close: (() => Promise<void>) | null = null
const dir = mkdtempSync(join(tmpdir(), 'qa-s3-contract-'))

describeArtifactStore(
  's3 (s3rver on loopback)',
  async () => {
    const { default: S3rver } = await import('s3rver')
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'qa-contract', configs: [] }],
    })
    const addr = await server.run()
    close = () => server.close()
    return s3ArtifactStore({
      bucket: 'qa-contract',
      prefix: 'nightly/',
      endpoint: `http://127.0.0.1:${addr.port}`,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    })
  },
  {
    cleanup: async () => {
      await close?.()
      rmSync(dir, { recursive: true, force: true })
    },
  },
)
