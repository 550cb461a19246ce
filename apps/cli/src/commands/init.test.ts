import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { validateWorkflow } from '@action-validator/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { qa } from '../__tests__/run-cli'
import { loadConfig } from '../config'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qa-init-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('qa init', () => {
  it('writes a config whose $schema is a file that is there, cases/, .gitignore lines and a CI workflow', async () => {
    const r = qa(['init'], { cwd: dir })
    expect(r.code, r.stderr).toBe(0)
    const config = JSON.parse(readFileSync(join(dir, 'qa.config.json'), 'utf8')) as { $schema: string }
    const schemaFile = resolve(dir, config.$schema)
    expect(existsSync(schemaFile), schemaFile).toBe(true)
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { properties: Record<string, unknown> }
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['verify', 'replay', 'vision']))
    const loaded = await loadConfig({ cwd: dir, env: {} })
    expect(loaded.config.replay).toMatchObject({ reportDir: 'qa-reports', reportFormats: ['json', 'html', 'junit'] })
    expect(existsSync(join(dir, 'cases', 'README.md'))).toBe(true)
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(
      '# qa reports and demo output\nqa-reports/\nqa-demo/\ntest-results/\n',
    )
    const workflow = readFileSync(join(dir, '.github/workflows/qa.yml'), 'utf8')
    // valid for GitHub Actions: checked against the workflow schema GitHub's editors use (SchemaStore's)
    expect(validateWorkflow(workflow).errors).toEqual([])
    expect(workflow).toMatch(/^ {8}run: apt-get update && apt-get install -y --no-install-recommends chromium xvfb/m)
    expect(workflow).toMatch(/^ {8}run: xvfb-run -a npx qa replay cases\/ --verify/m)
    expect(workflow).toMatch(
      /uses: actions\/upload-artifact@v4\n {8}with:\n {10}name: qa-reports\n {10}path: qa-reports\/\n/,
    )
  })

  it('refuses to replace existing files without --force (exit 2, nothing written), replaces them with it', async () => {
    await writeFile(join(dir, 'qa.config.json'), '{ "verify": { "passSimilarity": 0.9 } }\n')
    await writeFile(join(dir, '.gitignore'), 'node_modules\nqa-reports')
    const refused = qa(['init'], { cwd: dir })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('qa.config.json already exists')
    expect(refused.stderr).toContain('--force')
    expect(await readFile(join(dir, 'qa.config.json'), 'utf8')).toBe('{ "verify": { "passSimilarity": 0.9 } }\n')
    expect(existsSync(join(dir, 'cases'))).toBe(false)
    const forced = qa(['init', '--force'], { cwd: dir })
    expect(forced.code, forced.stderr).toBe(0)
    expect(await readFile(join(dir, 'qa.config.json'), 'utf8')).toContain('"$schema"')
    // lines already there are kept, the missing ones added once
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules\nqa-reports\n# qa reports and demo output\nqa-demo/\ntest-results/\n',
    )
  })

  it('a --dir that is not a folder is a usage error', () => {
    const r = qa(['init', '--dir', join(dir, 'missing')], { cwd: dir })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('is not a folder')
  })
})
