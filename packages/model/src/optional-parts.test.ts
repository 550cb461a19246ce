import { describe, expect, it } from 'vitest'
import { isQaError } from './errors'
import { importOptional, installCommand, isModuleNotFound, missingPartError, OPTIONAL_PARTS } from './optional-parts'

describe('optional parts', () => {
  it('a missing package becomes OPTIONAL_PART_MISSING naming what needs it and the install command', async () => {
    const error = await importOptional('ocr', 'qa-no-such-package', () => import('qa-no-such-package' as string)).catch(
      (e: unknown) => e,
    )
    expect(isQaError(error) && error.code).toBe('OPTIONAL_PART_MISSING')
    expect((error as Error).message).toBe(
      'tesseract.js and @tesseract.js-data/eng and @tesseract.js-data/kor are not installed; offline OCR: the "ocr" vision provider, text location on the desktop needs them.',
    )
    expect((error as { hint?: string }).hint).toBe(
      'Install them in your project: npm install -D tesseract.js@^7.0.0 @tesseract.js-data/eng@^1.0.0 @tesseract.js-data/kor@^1.0.0',
    )
  })

  it('an error inside a module that was found is thrown as it is', async () => {
    const load = () => import('data:text/javascript,throw new Error("broken inside")' as string)
    await expect(importOptional('server', 'fastify', load)).rejects.toThrow('broken inside')
  })

  it('a module missing from inside the part (another name) is not taken for the part', () => {
    const nested = Object.assign(new Error("Cannot find package 'left-pad' imported from /x/fastify/index.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    })
    expect(isModuleNotFound(nested, 'left-pad')).toBe(true)
    expect(isModuleNotFound(nested, '@modelcontextprotocol/sdk/types.js')).toBe(false)
  })

  it('one package is named in the singular', () => {
    expect(missingPartError('server').message).toBe(
      'fastify is not installed; the HTTP API and the Runner Inspector page (qa serve) needs it.',
    )
    expect(installCommand('server')).toBe('npm install -D fastify@^5.12.8 light-my-request@~6.6.0')
  })

  it('every part names at least one package with a range, and ids are unique', () => {
    expect(new Set(OPTIONAL_PARTS.map((p) => p.id)).size).toBe(OPTIONAL_PARTS.length)
    for (const part of OPTIONAL_PARTS) {
      expect(Object.keys(part.packages).length).toBeGreaterThan(0)
      for (const range of Object.values(part.packages)) expect(range).toMatch(/^\^\d+\.\d+\.\d+$/)
    }
  })
})
