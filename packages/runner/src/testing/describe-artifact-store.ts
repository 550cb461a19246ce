import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { ArtifactStore } from '../artifact-store'

export interface ArtifactStoreContractOptions {
  /** Called once after the suite (stop servers, remove folders). */
  cleanup?: () => Promise<void> | void
}

const bytes = (...b: number[]) => new Uint8Array(b)
const text = (u: Uint8Array | null) => (u ? Buffer.from(u).toString('utf8') : null)

/**
 * The contract every ArtifactStore keeps (local folder, S3): what is put is got back byte for byte, a missing key
 * is null, a put replaces, `list` gives the full keys under a prefix and nothing beside it, `putDir`/`getDir` copy
 * a folder tree both ways, and a key that climbs out (`..`) is refused. `make` is called once; each test writes
 * under its own prefix.
 */
export function describeArtifactStore(
  label: string,
  make: () => ArtifactStore | Promise<ArtifactStore>,
  opts: ArtifactStoreContractOptions = {},
): void {
  describe(`ArtifactStore contract: ${label}`, () => {
    let store: ArtifactStore | undefined
    const get = async () => {
      store ??= await make()
      return store
    }
    const temps: string[] = []
    const temp = async () => {
      const dir = await mkdtemp(join(tmpdir(), 'qa-artifact-contract-'))
      temps.push(dir)
      return dir
    }
    afterAll(async () => {
      for (const dir of temps) await rm(dir, { recursive: true, force: true })
      await opts.cleanup?.()
    })

    test('a missing key reads as null', async () => {
      expect(await (await get()).get('missing/nothing-here.json')).toBeNull()
    })

    test('text and bytes come back exactly; a second put replaces the first', async () => {
      const s = await get()
      await s.put('put/보고서.txt', '합격 ✓')
      expect(text(await s.get('put/보고서.txt'))).toBe('합격 ✓')
      await s.put('put/shot.png', bytes(0x89, 0x50, 0x4e, 0x47, 0, 255))
      expect([...((await s.get('put/shot.png')) ?? [])]).toEqual([0x89, 0x50, 0x4e, 0x47, 0, 255])
      await s.put('put/보고서.txt', 'second')
      expect(text(await s.get('put/보고서.txt'))).toBe('second')
    })

    test('list gives the full keys under a prefix, nested ones too, and nothing of a longer sibling', async () => {
      const s = await get()
      await s.put('list/r1/report.json', '{}')
      await s.put('list/r1/artifacts/step-1.png', bytes(1))
      await s.put('list/r10/report.json', '{}')
      expect((await s.list('list/r1/')).sort()).toEqual(['list/r1/artifacts/step-1.png', 'list/r1/report.json'])
      expect(await s.list('list/none/')).toEqual([])
    })

    test('putDir uploads a folder tree under a prefix and getDir writes it back', async () => {
      const s = await get()
      const from = await temp()
      await mkdir(join(from, 'artifacts'))
      await writeFile(join(from, 'report.html'), '<h1>결과</h1>')
      await writeFile(join(from, 'artifacts', 'a.png'), bytes(7, 8, 9))
      expect((await s.putDir(from, 'dir/run-1/')).sort()).toEqual([
        'dir/run-1/artifacts/a.png',
        'dir/run-1/report.html',
      ])
      expect(text(await s.get('dir/run-1/report.html'))).toBe('<h1>결과</h1>')
      const to = await temp()
      const written = await s.getDir('dir/run-1/', to)
      expect(written.sort()).toEqual([join(to, 'artifacts', 'a.png'), join(to, 'report.html')])
      expect(await readFile(join(to, 'report.html'), 'utf8')).toBe('<h1>결과</h1>')
      expect([...(await readFile(join(to, 'artifacts', 'a.png')))]).toEqual([7, 8, 9])
    })

    test('a key that climbs out of the store is refused', async () => {
      const s = await get()
      await expect(s.put('../outside.txt', 'x')).rejects.toThrow()
      // reading such a key gives nothing: the folder store answers null, the S3 store refuses
      const read = await s.get('runs/../../outside.txt').catch(() => 'refused' as const)
      expect([null, 'refused']).toContain(read)
    })
  })
}
