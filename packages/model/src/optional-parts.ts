import { QaError } from './errors'

/**
 * The parts of qa that most projects do not need, each installed by the project that wants it. The packages that
 * use them declare them as optional peer dependencies and load them on first use, so `npm install -D @qa/cli`
 * stays light; a missing one fails with the install command (`OPTIONAL_PART_MISSING`), and `qa doctor` lists
 * which are present.
 */
export interface OptionalPart {
  id: OptionalPartId
  /** What works only with this part. */
  feature: string
  /** npm package → version range (the same range the using package declares as its peer). */
  packages: Record<string, string>
  /** The qa package whose code loads it (where it is looked up from). */
  usedBy: string
  /**
   * Dependencies of the part that the install command pins too (qa never loads them): their newer releases want a
   * newer Node than qa supports, and npm keeps a pinned version that satisfies the part's range.
   */
  enginePins?: Record<string, string>
}

export type OptionalPartId = 'ocr' | 'bedrock' | 's3' | 'queue' | 'server' | 'mcp' | 'desktop' | 'playwright-test'

export const OPTIONAL_PARTS: readonly OptionalPart[] = [
  {
    id: 'ocr',
    feature: 'offline OCR: the "ocr" vision provider, text location on the desktop',
    packages: { 'tesseract.js': '^7.0.0', '@tesseract.js-data/eng': '^1.0.0', '@tesseract.js-data/kor': '^1.0.0' },
    usedBy: '@qa/vision',
  },
  {
    id: 'bedrock',
    feature: 'a Vision LLM on Amazon Bedrock (the "bedrock" vision provider)',
    packages: { '@aws-sdk/client-bedrock-runtime': '^3.1163.0' },
    usedBy: '@qa/vision',
  },
  {
    id: 's3',
    feature: 'reports and cases in an S3 bucket (--artifacts s3://…)',
    packages: { '@aws-sdk/client-s3': '^3.1169.0' },
    usedBy: '@qa/runner',
  },
  {
    id: 'queue',
    feature: 'runs spread over several machines (qa serve --queue, qa worker)',
    packages: { bullmq: '^5.81.5', ioredis: '^5.11.1' },
    usedBy: '@qa/runner',
  },
  {
    id: 'server',
    feature: 'the HTTP API and the Runner Inspector page (qa serve)',
    packages: { fastify: '^5.12.8' },
    usedBy: '@qa/api',
    // light-my-request 6.7+ brings cookie 2, which wants Node 22
    enginePins: { 'light-my-request': '~6.6.0' },
  },
  {
    id: 'mcp',
    feature: 'the MCP server for LLM agents (qa mcp, qa serve --mcp)',
    packages: { '@modelcontextprotocol/sdk': '^1.32.2' },
    usedBy: '@qa/api',
  },
  {
    id: 'desktop',
    feature: 'desktop and game record/replay (native screen capture, input and the input hook)',
    packages: { '@nut-tree-fork/nut-js': '^4.2.6', 'uiohook-napi': '^1.5.5' },
    usedBy: '@qa/recorder-desktop',
  },
  {
    id: 'playwright-test',
    feature: 'the heal() fixture, matcher and reporter of @qa/playwright inside Playwright Test',
    packages: { '@playwright/test': '^1.65.1' },
    usedBy: '@qa/playwright',
  },
]

export function optionalPart(id: OptionalPartId): OptionalPart {
  return OPTIONAL_PARTS.find((p) => p.id === id) as OptionalPart
}

/** The command that installs a part into the project: `npm install -D tesseract.js@^7.0.0 …`. */
export function installCommand(part: OptionalPartId | Pick<OptionalPart, 'packages' | 'enginePins'>): string {
  const { packages, enginePins } = typeof part === 'string' ? optionalPart(part) : part
  return `npm install -D ${Object.entries({ ...packages, ...enginePins })
    .map(([name, range]) => `${name}@${range}`)
    .join(' ')}`
}

/** The error a missing optional part gives: what needs it and the command that installs it. */
export function missingPartError(id: OptionalPartId, cause?: unknown): QaError<'OPTIONAL_PART_MISSING'> {
  const part = optionalPart(id)
  return new QaError(
    'OPTIONAL_PART_MISSING',
    `${Object.keys(part.packages).join(' and ')} ${Object.keys(part.packages).length > 1 ? 'are' : 'is'} not installed; ${part.feature} needs ${Object.keys(part.packages).length > 1 ? 'them' : 'it'}.`,
    {
      hint: `Install ${Object.keys(part.packages).length > 1 ? 'them' : 'it'} in your project: ${installCommand(id)}`,
      cause,
    },
  )
}

/** True when an error says the module itself could not be found (not an error inside a module that loaded). */
export function isModuleNotFound(error: unknown, specifier: string): boolean {
  const e = error as { code?: string; message?: string } | null
  if (!e || (e.code !== 'ERR_MODULE_NOT_FOUND' && e.code !== 'MODULE_NOT_FOUND')) return false
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '')
  return typeof e.message === 'string' && e.message.includes(name)
}

/**
 * Loads an optional part: `load` is the `import()` (kept literal so bundlers see it); a missing package becomes
 * {@link missingPartError}, any other failure is thrown as it is.
 */
export async function importOptional<T>(id: OptionalPartId, specifier: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (isModuleNotFound(error, specifier)) throw missingPartError(id, error)
    throw error
  }
}
