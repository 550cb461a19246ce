import { type ArtifactStore, localArtifactStore, parseArtifactSpec } from './artifact-store'

/** The store a `--artifacts` value names: a folder (default `fallbackDir`) or `s3://…` (SDK loaded lazily). */
export async function openArtifactStore(spec: string | undefined, fallbackDir: string): Promise<ArtifactStore> {
  const parsed = parseArtifactSpec(spec ?? fallbackDir)
  if (parsed.kind === 'dir') return localArtifactStore(parsed.dir)
  const { kind: _kind, ...opts } = parsed
  const { s3ArtifactStore } = await import('./s3-artifact-store')
  return s3ArtifactStore(opts)
}
