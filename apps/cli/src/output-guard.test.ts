import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalPath, findOutputConflict, guardOutputs } from './output-guard'

const segment = fc.constantFrom('cases', 'login', 'a', 'b.json', 'step-000-after.png', '스크린샷', 'x y')
const relPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'))
/** Noise that changes the spelling of a path but not where it points: `./`, `x/../`, a trailing slash. */
const respell = (path: string, noise: number) =>
  noise === 0
    ? path
    : noise === 1
      ? path.replace(/^\//, '/./')
      : noise === 2
        ? path.replace(/\/([^/]+)$/, '/zz/../$1')
        : `${path}/`

describe('findOutputConflict', () => {
  it('an output equal to or inside any input is always refused (property, 200 runs)', () => {
    fc.assert(
      fc.property(
        fc.array(relPath, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.option(relPath),
        fc.integer({ min: 0, max: 3 }),
        (inputs, pick, below, noise) => {
          const root = '/work/project'
          const chosen = inputs[pick % inputs.length] as string
          const output = respell(resolve(root, chosen, ...(below ? [below] : [])), noise)
          const conflict = findOutputConflict(
            [{ path: resolve(output), flag: '--out' }],
            inputs.map((p) => ({ path: resolve(root, p), what: 'an input' })),
          )
          expect(conflict?.input).toBeDefined()
        },
      ),
      { numRuns: 200 },
    )
  })

  it('an output beside the inputs (not equal, not inside) is allowed (property, 200 runs)', () => {
    fc.assert(
      fc.property(fc.array(relPath, { minLength: 1, maxLength: 4 }), relPath, (inputs, name) => {
        const output = resolve('/elsewhere', name)
        const given = inputs.map((p) => ({ path: resolve('/work', p), what: 'x' }))
        expect(findOutputConflict([{ path: output, flag: '--out' }], given)).toBeNull()
      }),
      { numRuns: 200 },
    )
  })

  it('two flags naming the same file collide', () => {
    const c = findOutputConflict(
      [
        { path: '/r/a.xml', flag: '--junit' },
        { path: '/r/a.xml', flag: '--save-heals' },
      ],
      [],
    )
    expect(c?.other?.flag).toBe('--junit')
  })

  it('a sibling whose name starts like the input is not inside it', () => {
    expect(
      findOutputConflict([{ path: '/c/login-2.json', flag: '--out' }], [{ path: '/c/login', what: 'x' }]),
    ).toBeNull()
  })
})

describe('guardOutputs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-guard-'))
  writeFileSync(join(dir, 'case.json'), '{}')
  mkdirSync(join(dir, 'shots'))
  symlinkSync(join(dir, 'case.json'), join(dir, 'link.json'))

  it('sees through symlinks and `..`', async () => {
    await expect(
      guardOutputs({
        outputs: [{ path: join(dir, 'shots', '..', 'link.json'), flag: '--out' }],
        inputs: [{ path: join(dir, 'case.json'), what: 'the test case' }],
        force: true,
        nothing: 'nothing was written',
      }),
    ).rejects.toThrow(/--out .*case\.json is the test case; qa never writes over its input/)
    expect(await canonicalPath(join(dir, 'link.json'))).toBe(await canonicalPath(join(dir, 'case.json')))
  })

  it('an existing file needs force; a folder is never a file output; a new file is fine', async () => {
    const run = (path: string, force: boolean) =>
      guardOutputs({ outputs: [{ path, flag: '--out' }], inputs: [], force, nothing: 'nothing was written' })
    await expect(run(join(dir, 'case.json'), false)).rejects.toThrow(/already exists; nothing was written/)
    await expect(run(join(dir, 'case.json'), true)).resolves.toBeUndefined()
    await expect(run(join(dir, 'shots'), true)).rejects.toThrow(/is a folder; expected a file path/)
    await expect(run(join(dir, 'new', 'deeper.json'), false)).resolves.toBeUndefined()
  })

  it('a screenshot folder output: refused when it holds files, unless forced', async () => {
    writeFileSync(join(dir, 'shots', 'step-000-after.png'), 'x')
    const run = (force: boolean) =>
      guardOutputs({
        outputs: [{ path: join(dir, 'shots'), flag: '--out', folder: true }],
        inputs: [],
        force,
        nothing: 'nothing was recorded',
      })
    await expect(run(false)).rejects.toThrow(/already exists and is not empty/)
    await expect(run(true)).resolves.toBeUndefined()
  })
})
