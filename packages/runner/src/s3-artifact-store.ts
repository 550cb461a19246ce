import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { importOptional } from '@qa/model'
import { type ArtifactStore, assertArtifactKey, listFilesRelative, type S3StoreOptions } from './artifact-store'
import { ServerError } from './errors'

type S3Module = typeof import('@aws-sdk/client-s3')

/**
 * The region the SDK finds by itself (AWS_REGION, the shared config file's profile), else `fallback`: a store on a
 * local S3-compatible server needs no region, but the SDK refuses to sign without one.
 */
const sdkRegionOr = (s3: S3Module, fallback: string) => async (): Promise<string> =>
  await new s3.S3Client({}).config.region().catch(() => fallback)

/** Artifacts in an S3 bucket or any S3-compatible server, through @aws-sdk/client-s3 (loaded on first use). */
export function s3ArtifactStore(opts: S3StoreOptions): ArtifactStore {
  const prefix = opts.prefix ?? ''
  let client: Promise<{ s3: S3Module; c: import('@aws-sdk/client-s3').S3Client }> | null = null
  const connect = () => {
    client ??= importOptional('s3', '@aws-sdk/client-s3', () => import('@aws-sdk/client-s3')).then((s3) => ({
      s3,
      c: new s3.S3Client({
        region: opts.region ?? sdkRegionOr(s3, 'us-east-1'),
        ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
        forcePathStyle: opts.forcePathStyle ?? Boolean(opts.endpoint),
        ...(opts.credentials ? { credentials: opts.credentials } : {}),
      }),
    }))
    return client
  }
  const fail = (what: string, key: string, error: unknown): never => {
    throw new ServerError(
      'SERVER_INTERNAL',
      `Could not ${what} s3://${opts.bucket}/${prefix}${key}: ${(error as Error).message ?? String(error)}`,
      {
        hint: 'Check the bucket, --artifacts endpoint and the AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY of this host.',
        cause: error,
      },
    )
  }
  const store: ArtifactStore = {
    description: `s3://${opts.bucket}/${prefix}${opts.endpoint ? ` at ${opts.endpoint}` : ''}`,
    localRoot: null,
    async put(key, body) {
      const { s3, c } = await connect()
      try {
        await c.send(
          new s3.PutObjectCommand({
            Bucket: opts.bucket,
            Key: `${prefix}${assertArtifactKey(key)}`,
            Body: typeof body === 'string' ? Buffer.from(body) : body,
          }),
        )
      } catch (error) {
        fail('write', key, error)
      }
    },
    async get(key) {
      const { s3, c } = await connect()
      try {
        const r = await c.send(
          new s3.GetObjectCommand({ Bucket: opts.bucket, Key: `${prefix}${assertArtifactKey(key)}` }),
        )
        return r.Body ? await r.Body.transformToByteArray() : new Uint8Array()
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
        if (status === 404 || (error as { name?: string }).name === 'NoSuchKey') return null
        return fail('read', key, error)
      }
    },
    async list(keyPrefix) {
      const { s3, c } = await connect()
      const keys: string[] = []
      let token: string | undefined
      try {
        do {
          const r = await c.send(
            new s3.ListObjectsV2Command({
              Bucket: opts.bucket,
              Prefix: `${prefix}${keyPrefix}`,
              ...(token ? { ContinuationToken: token } : {}),
            }),
          )
          for (const o of r.Contents ?? []) if (o.Key) keys.push(o.Key.slice(prefix.length))
          token = r.IsTruncated ? r.NextContinuationToken : undefined
        } while (token)
      } catch (error) {
        fail('list', keyPrefix, error)
      }
      return keys.sort()
    },
    async putDir(localDir, keyPrefix) {
      const files = await listFilesRelative(localDir)
      await Promise.all(files.map(async (f) => store.put(`${keyPrefix}${f}`, await readFile(join(localDir, f)))))
      return files.map((f) => `${keyPrefix}${f}`)
    },
    async getDir(keyPrefix, localDir) {
      const written: string[] = []
      for (const key of await store.list(keyPrefix)) {
        const body = await store.get(key)
        if (!body) continue
        const target = join(localDir, ...key.slice(keyPrefix.length).split('/'))
        await mkdir(dirname(target), { recursive: true })
        await writeFile(target, body)
        written.push(target)
      }
      return written
    },
  }
  return store
}
