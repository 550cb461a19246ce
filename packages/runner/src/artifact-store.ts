import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { ServerError } from './errors'

/**
 * Where screenshots and reports of queued runs go: keys are `/`-separated paths (`runs/<id>/<suite>/report.json`).
 * A local or shared directory by default; S3-compatible object storage so that workers on other hosts need no
 * shared disk.
 */
export interface ArtifactStore {
  /** For logs: `dir /srv/qa-reports` or `s3://bucket/prefix`. */
  readonly description: string
  /** Absolute folder of a local store (the server streams files from it); null for object storage. */
  readonly localRoot: string | null
  put(key: string, body: Uint8Array | string): Promise<void>
  /** The object, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>
  /** Keys under `prefix` (which ends with `/`), sorted. */
  list(prefix: string): Promise<string[]>
  /** Uploads every file under `localDir` to `prefix + <relative path>`; returns the keys written. */
  putDir(localDir: string, prefix: string): Promise<string[]>
  /** Downloads every object under `prefix` into `localDir`; returns the local paths written. */
  getDir(prefix: string, localDir: string): Promise<string[]>
}

/** Throws unless `key` is a relative `/` path without `..`, `.`, empty parts, backslashes or NUL. */
export function assertArtifactKey(key: string): string {
  const parts = key.split('/')
  const ok =
    key.length > 0 &&
    key.length <= 1000 &&
    !key.includes('\\') &&
    !key.includes('\0') &&
    parts.every((p, i) => (p !== '' || i === parts.length - 1) && p !== '.' && p !== '..') &&
    !key.startsWith('/')
  if (!ok) {
    throw new ServerError('SERVER_BAD_OPTION', `"${key.slice(0, 120)}" is not a valid artifact key.`, {
      hint: 'Keys are relative paths with "/" separators and no "." or ".." parts.',
    })
  }
  return key
}

/** Every file under `dir`, as `/`-separated paths relative to it, sorted. */
export async function listFilesRelative(dir: string): Promise<string[]> {
  const out: string[] = []
  const walk = async (d: string) => {
    const entries = await readdir(d, { withFileTypes: true }).catch(() => [])
    for (const e of entries) {
      const p = join(d, e.name)
      if (e.isDirectory()) await walk(p)
      else if (e.isFile()) out.push(relative(dir, p).split(sep).join('/'))
    }
  }
  await walk(dir)
  return out.sort()
}

/** A store in a local or shared (NFS, SMB) folder: keys are paths under `root`. */
export function localArtifactStore(root: string): ArtifactStore {
  const base = resolve(root)
  const pathOf = (key: string) => join(base, ...assertArtifactKey(key).split('/'))
  const store: ArtifactStore = {
    description: `dir ${base}`,
    localRoot: base,
    async put(key, body) {
      const p = pathOf(key)
      await mkdir(dirname(p), { recursive: true })
      await writeFile(p, body)
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)))
      } catch {
        return null
      }
    },
    async list(prefix) {
      const dir = pathOf(prefix.replace(/\/$/, '') || '.')
      const info = await stat(dir).catch(() => null)
      if (!info?.isDirectory()) return []
      const clean = prefix.replace(/\/$/, '')
      return (await listFilesRelative(dir)).map((f) => `${clean}/${f}`)
    },
    async putDir(localDir, prefix) {
      const keys: string[] = []
      for (const f of await listFilesRelative(localDir)) {
        const key = `${prefix}${f}`
        if (resolve(localDir, f) !== pathOf(key)) await store.put(key, await readFile(join(localDir, f)))
        keys.push(key)
      }
      return keys
    },
    async getDir(prefix, localDir) {
      const written: string[] = []
      for (const key of await store.list(prefix)) {
        const target = join(localDir, ...key.slice(prefix.length).split('/'))
        const body = await store.get(key)
        if (!body) continue
        await mkdir(dirname(target), { recursive: true })
        await writeFile(target, body)
        written.push(target)
      }
      return written
    },
  }
  return store
}

export interface S3StoreOptions {
  bucket: string
  /** Key prefix inside the bucket (e.g. `nightly/`), default none. */
  prefix?: string
  /** For S3-compatible servers (MinIO, s3rver, Ceph): `http://127.0.0.1:9000`. */
  endpoint?: string
  region?: string
  /** Path-style URLs (`endpoint/bucket/key`), needed by most local servers; default true when `endpoint` is set. */
  forcePathStyle?: boolean
  /** Default: the AWS SDK's chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
}

/**
 * `s3://bucket/prefix?endpoint=http://127.0.0.1:9000&region=us-east-1&forcePathStyle=true` → S3 options;
 * anything else is a folder path. Pure.
 */
export function parseArtifactSpec(spec: string): { kind: 'dir'; dir: string } | ({ kind: 's3' } & S3StoreOptions) {
  if (!spec.startsWith('s3://')) return { kind: 'dir', dir: spec }
  let url: URL
  try {
    url = new URL(spec)
  } catch {
    url = new URL('s3://invalid')
  }
  const bucket = url.hostname
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ServerError('SERVER_BAD_OPTION', `--artifacts ${spec}: "${bucket}" is not an S3 bucket name.`, {
      hint: 'Use s3://<bucket>/<prefix>?endpoint=<url>, e.g. s3://qa-artifacts/nightly?endpoint=http://127.0.0.1:9000',
    })
  }
  const prefix = decodeURIComponent(url.pathname.replace(/^\/+/, ''))
  const q = url.searchParams
  const fps = q.get('forcePathStyle')
  return {
    kind: 's3',
    bucket,
    ...(prefix ? { prefix: prefix.endsWith('/') ? prefix : `${prefix}/` } : {}),
    ...(q.get('endpoint') ? { endpoint: q.get('endpoint') as string } : {}),
    ...(q.get('region') ? { region: q.get('region') as string } : {}),
    ...(fps !== null ? { forcePathStyle: fps !== 'false' && fps !== '0' } : {}),
  }
}
