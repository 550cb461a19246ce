import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeDesktopClickCase } from '../__tests__/desktop-key-case'
import { qa, repoRoot } from '../__tests__/run-cli'

/**
 * Every command reads one configuration (qa.config.json < QA_* < flags, `loadConfig`), so a
 * bad key or a bad QA_* variable stops each of them the same way, before any work, naming the key or variable.
 */
const dir = mkdtempSync(join(tmpdir(), 'qa-one-config-'))
const desktopCase = writeDesktopClickCase(dir)
const legacyCase = join(repoRoot, 'packages/model/test/fixtures/v1/coordinate-only.json')
const withConfig = (name: string, config: unknown) => {
  const sub = mkdtempSync(join(dir, `${name}-`))
  writeFileSync(join(sub, 'qa.config.json'), JSON.stringify(config))
  return sub
}

describe('one configuration for every command', () => {
  const badFile = withConfig('bad', { record: { settleMs: -5 }, vision: { provider: 'gpt' } })
  it.each([
    ['record desktop', ['record', 'desktop', '--out', join(dir, 'rec.json')]],
    ['record web', ['record', 'web', 'http://127.0.0.1:9/', '--out', join(dir, 'web.json')]],
    ['enrich (desktop case)', ['enrich', legacyCase, '--out', join(dir, 'enriched.json')]],
    ['replay (desktop case)', ['replay', desktopCase]],
    ['replay (folder)', ['replay', dir]],
  ])('%s reads qa.config.json of the working folder and names its bad keys', (_name, args) => {
    const r = qa(args, { cwd: badFile, env: { DISPLAY: '' } })
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toContain('record.settleMs: expected a positive integer, got -5')
    expect(r.stderr).toContain('vision.provider: expected one of "bedrock", "openai", "ocr", "none", got "gpt"')
    expect(r.stderr).not.toMatch(/No display/)
  })

  it.each([
    ['record desktop --analyze', ['record', 'desktop', '--analyze', '--out', join(dir, 'rec2.json')]],
    ['enrich (desktop case)', ['enrich', legacyCase, '--out', join(dir, 'enriched2.json')]],
    ['replay (desktop case)', ['replay', desktopCase]],
  ])('%s reads QA_VISION through the one declaration of QA_* variables', (_name, args) => {
    const r = qa(args, { cwd: dir, env: { DISPLAY: '', QA_VISION: 'gpt', QA_VISION_TIMEOUT_MS: 'soon' } })
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toContain('QA_VISION (vision.provider): expected one of "bedrock", "openai", "ocr", "none"')
    expect(r.stderr).toContain('QA_VISION_TIMEOUT_MS (vision.timeoutMs): expected a positive integer')
  })

  it('an openai provider without its endpoint is named before anything runs', () => {
    const r = qa(['enrich', legacyCase, '--out', join(dir, 'enriched3.json')], {
      cwd: dir,
      env: { QA_VISION: 'openai', QA_OPENAI_MODEL: 'qwen2.5vl:7b' },
    })
    expect(r.code, r.stderr).toBe(2)
    expect(r.stderr).toContain('vision.openaiBaseUrl (QA_OPENAI_BASE_URL): expected a value when the openai provider')
  })

  it('"$schema" is accepted in qa.config.json (editor completion), and a wrong key next to it is still named', () => {
    const schema = join(repoRoot, 'packages/model/qa.config.schema.json')
    const ok = withConfig('schema-ok', { $schema: schema, replay: { reportDir: 'r' } })
    const r = qa(['enrich', legacyCase, '--out', join(ok, 'enriched.json'), '--json'], {
      cwd: ok,
      env: { QA_VISION: 'ocr' },
    })
    expect(r.code, r.stderr).toBe(0)
    const typo = withConfig('schema-typo', { $schema: schema, replay: { reportdir: 'r' } })
    const bad = qa(['enrich', legacyCase, '--out', join(typo, 'enriched.json')], { cwd: typo })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('replay.reportdir: expected one of replay.actionTimeoutMs')
  })
})
