import { describe, expect, it } from 'vitest'
import { qaAsync } from '../__tests__/run-cli'

describe('qa doctor', () => {
  it('passes on a machine set up by the README (Chromium, fonts, OCR data)', async () => {
    const r = await qaAsync(['doctor', '--json'], { env: { QA_VISION: 'ocr' } })
    const out = JSON.parse(r.stdout)
    const byName = Object.fromEntries(out.checks.map((c: { name: string }) => [c.name, c]))
    expect(byName.chromium.status).toBe('ok')
    expect(byName['korean-font'].status).toBe('ok')
    expect(byName.vision.status).toBe('ok')
    expect(r.code).toBe(0)
  })

  it('fails with exit 2 and the fix when Chromium is missing', async () => {
    const r = await qaAsync(['doctor'], { env: { QA_CHROMIUM: '/nonexistent/chromium' } })
    expect(r.code).toBe(2)
    expect(r.stdout).toMatch(/✗ chromium +no Chromium at \/nonexistent\/chromium\n +fix: sudo apt-get install chromium/)
  })

  it('names the environment variables a Vision LLM needs', async () => {
    const bedrock = await qaAsync(['doctor', '--json'], {
      env: {
        QA_VISION: 'bedrock',
        AWS_REGION: '',
        AWS_ACCESS_KEY_ID: '',
        AWS_SECRET_ACCESS_KEY: '',
        AWS_PROFILE: '',
        HOME: '/nonexistent',
      },
    })
    const vision = JSON.parse(bedrock.stdout).checks.find((c: { name: string }) => c.name === 'vision')
    expect(bedrock.code).toBe(2)
    expect(vision.fix).toMatch(/AWS_REGION=.*AWS_ACCESS_KEY_ID=.*AWS_SECRET_ACCESS_KEY=/)
    // the openai provider without its endpoint and model is an invalid configuration (one config definition
    // checks it for every command): the config check names both variables
    const openai = await qaAsync(['doctor', '--json'], { env: { QA_VISION: 'openai' } })
    expect(openai.code).toBe(2)
    const config = JSON.parse(openai.stdout).checks.find((c: { name: string }) => c.name === 'config')
    expect(config.status).toBe('fail')
    expect(config.detail).toMatch(/QA_OPENAI_BASE_URL[\s\S]*QA_OPENAI_MODEL/)
  })

  it('reports a broken config file with the key, and exit 2', async () => {
    const r = await qaAsync(['doctor', '--config', '/nonexistent/qa.config.json'])
    expect(r.code).toBe(2)
    expect(r.stdout).toMatch(/✗ config +\/nonexistent\/qa\.config\.json: no such config file/)
  })
})
