import { execFile } from 'node:child_process'
import { access, constants } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { installCommand, OPTIONAL_PARTS, type QaConfig } from '@qa/model'
import { openBrowser } from '@qa/recorder-cdp'
import { hasRecordExtension } from '@qa/recorder-desktop'
import { findTessdata } from '@qa/vision'
import { Command, Option } from 'clipanion'
import { QaCommand } from '../base-command'
import { loadConfig } from '../config'
import { EXIT_PASS, EXIT_USAGE } from '../exit-codes'
import type { DoctorCheck } from '../doctor-check'
import { checkOptionalPart } from '../optional-parts'

const run = promisify(execFile)

async function which(binary: string): Promise<string | null> {
  try {
    const { stdout } = await run('sh', ['-c', `command -v ${binary}`])
    return stdout.trim() || null
  } catch {
    return null
  }
}

async function checkChromium(config: QaConfig): Promise<DoctorCheck> {
  const path = config.browser.chromiumPath
  try {
    await access(path, constants.X_OK)
  } catch {
    return {
      name: 'chromium',
      status: 'fail',
      required: true,
      detail: `no Chromium at ${path}`,
      fix: 'sudo apt-get install chromium   (or set QA_CHROMIUM / browser.chromiumPath to a Chrome or Chromium binary)',
    }
  }
  try {
    const session = await openBrowser({ executablePath: path })
    const version = session.browser.version()
    await session.close()
    return { name: 'chromium', status: 'ok', required: true, detail: `Chromium ${version} starts headless (${path})` }
  } catch (error) {
    return {
      name: 'chromium',
      status: 'fail',
      required: true,
      detail: `${path} does not start: ${(error as Error).message.split('\n')[0]}`,
      fix: 'Run it by hand with --headless --no-sandbox to see why; reinstall with sudo apt-get install --reinstall chromium.',
    }
  }
}

async function checkKoreanFont(): Promise<DoctorCheck> {
  if (!(await which('fc-list'))) {
    return {
      name: 'korean-font',
      status: 'warn',
      required: false,
      detail: 'fontconfig (fc-list) not found; cannot check fonts',
    }
  }
  const { stdout } = await run('fc-list', [':lang=ko', 'family']).catch(() => ({ stdout: '' }))
  const families = [
    ...new Set(
      stdout
        .split('\n')
        .map((l) => l.split(',')[0]?.trim())
        .filter(Boolean),
    ),
  ]
  return families.length
    ? {
        name: 'korean-font',
        status: 'ok',
        required: false,
        detail: `Hangul renders with ${families.slice(0, 2).join(', ')}`,
      }
    : {
        name: 'korean-font',
        status: 'warn',
        required: false,
        detail: 'no font with Hangul: Korean labels render as empty boxes in screenshots and OCR cannot read them',
        fix: 'sudo apt-get install fonts-noto-cjk',
      }
}

async function checkDisplay(desktop: boolean): Promise<DoctorCheck> {
  const display = process.env.DISPLAY
  const xvfb = await which('Xvfb')
  if (display) {
    const probe = await which('xdpyinfo')
    if (probe) {
      const ok = await run('xdpyinfo', ['-display', display]).then(
        () => true,
        () => false,
      )
      if (!ok)
        return {
          name: 'display',
          status: desktop ? 'fail' : 'warn',
          required: desktop,
          detail: `DISPLAY=${display} is set but no X server answers there`,
          fix: xvfb
            ? `Start one: Xvfb ${display} +extension RECORD &`
            : 'sudo apt-get install xvfb, then xvfb-run -a qa …',
        }
    }
    return {
      name: 'display',
      status: 'ok',
      required: desktop,
      detail: `X display ${display} for desktop recording and replay`,
    }
  }
  if (xvfb)
    return {
      name: 'display',
      status: desktop ? 'warn' : 'ok',
      required: false,
      detail: 'no DISPLAY; Xvfb is installed for desktop work',
      fix: 'Run desktop commands under a virtual screen: xvfb-run -a -s "-screen 0 1920x1080x24 +extension RECORD" qa record desktop …',
    }
  return {
    name: 'display',
    status: desktop ? 'fail' : 'warn',
    required: desktop,
    detail: 'no DISPLAY and no Xvfb: desktop recording and replay need a screen',
    fix: 'sudo apt-get install xvfb xdotool, then xvfb-run -a qa …  (web recording and replay do not need one)',
  }
}

/** The X RECORD extension the desktop recorder's input hook needs (only when a display answers). */
async function checkRecord(desktop: boolean): Promise<DoctorCheck | null> {
  const display = process.env.DISPLAY
  if (!display) return null
  const has = await hasRecordExtension(display)
  if (has === true)
    return { name: 'X RECORD extension', status: 'ok', required: desktop, detail: `present on ${display}` }
  if (has === false)
    return {
      name: 'X RECORD extension',
      status: desktop ? 'fail' : 'warn',
      required: desktop,
      detail: `missing on ${display}: qa record desktop cannot see clicks and keys (replay works without it)`,
      fix: 'Start the X server with it: Xvfb :99 +extension RECORD, or xvfb-run -a -s "-screen 0 1920x1080x24 +extension RECORD" qa …',
    }
  return {
    name: 'X RECORD extension',
    status: 'warn',
    required: false,
    detail: `cannot tell whether ${display} has it (xdpyinfo is missing or failed)`,
    fix: 'sudo apt-get install x11-utils',
  }
}

/** Where the desktop recorder would load a native module from (it is that package's dependency). */
function resolveNative(name: string): string | null {
  const fromCli = createRequire(import.meta.url)
  for (const base of ['@qa/recorder-desktop/package.json', null]) {
    try {
      const req = base ? createRequire(fromCli.resolve(base)) : fromCli
      return pathToFileURL(req.resolve(name)).href
    } catch {
      /* try the next place */
    }
  }
  return null
}

/**
 * Loads a native module in a child process: a native library that aborts (no X display, missing libXtst)
 * must not take `qa doctor` down with it.
 */
async function checkNative(name: string, desktop: boolean): Promise<DoctorCheck> {
  const url = resolveNative(name)
  if (!url) {
    return {
      name,
      status: desktop ? 'fail' : 'warn',
      required: desktop,
      detail: 'not installed (only desktop recording needs it)',
      fix: installCommand('desktop'),
    }
  }
  try {
    await run(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(url)})`], {
      timeout: 20_000,
    })
    return { name, status: 'ok', required: desktop, detail: 'native module loads' }
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? (error as Error).message)
    const firstLine = stderr.split('\n').find((l) => l.trim()) ?? 'it exited with an error'
    const noDisplay = !process.env.DISPLAY
    return {
      name,
      status: desktop ? 'fail' : 'warn',
      required: desktop,
      detail: `does not load${noDisplay ? ' without a display' : ''}: ${firstLine.trim()}`,
      fix: noDisplay
        ? 'Desktop work needs an X display: xvfb-run -a -s "-screen 0 1920x1080x24 +extension RECORD" qa …'
        : 'It needs libX11/libXtst (sudo apt-get install libxtst6 libxkbcommon-x11-0); then pnpm rebuild.',
    }
  }
}

async function checkVision(config: QaConfig, probe: boolean): Promise<DoctorCheck> {
  const v = config.vision
  if (v.provider === 'none')
    return { name: 'vision', status: 'ok', required: false, detail: 'QA_VISION=none: coordinates and pixels only' }
  if (v.provider === 'ocr') {
    const found = findTessdata(['eng', 'kor'])
    const missing = ['eng', 'kor'].filter((l) => !found.has(l))
    return missing.length
      ? {
          name: 'vision',
          status: 'warn',
          required: false,
          detail: `OCR (offline) without ${missing.join(', ')} language data`,
          fix: `${installCommand('ocr')}, or sudo apt-get install tesseract-ocr-eng tesseract-ocr-kor`,
        }
      : {
          name: 'vision',
          status: 'ok',
          required: false,
          detail:
            'OCR (offline, English + Korean). For a Vision LLM: QA_VISION=bedrock with AWS credentials, or QA_VISION=openai with QA_OPENAI_BASE_URL and QA_OPENAI_MODEL',
        }
  }
  if (v.provider === 'openai') {
    if (!v.openaiBaseUrl || !v.openaiModel)
      return {
        name: 'vision',
        status: 'fail',
        required: true,
        detail: 'QA_VISION=openai needs an endpoint and a model',
        fix: 'export QA_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 QA_OPENAI_MODEL=qwen2.5vl:7b  (QA_OPENAI_API_KEY if the server wants one)',
      }
    try {
      const res = await fetch(`${v.openaiBaseUrl.replace(/\/$/, '')}/models`, {
        signal: AbortSignal.timeout(5_000),
        headers: process.env.QA_OPENAI_API_KEY ? { authorization: `Bearer ${process.env.QA_OPENAI_API_KEY}` } : {},
      })
      return res.ok
        ? {
            name: 'vision',
            status: 'ok',
            required: true,
            detail: `OpenAI-compatible endpoint ${v.openaiBaseUrl} answers (model ${v.openaiModel})`,
          }
        : {
            name: 'vision',
            status: 'fail',
            required: true,
            detail: `${v.openaiBaseUrl}/models answered ${res.status}`,
            fix: 'Check QA_OPENAI_BASE_URL and QA_OPENAI_API_KEY.',
          }
    } catch (error) {
      return {
        name: 'vision',
        status: 'fail',
        required: true,
        detail: `${v.openaiBaseUrl} is not reachable (${(error as Error).message})`,
        fix: 'Start the model server, or set QA_OPENAI_BASE_URL to where it listens.',
      }
    }
  }
  // bedrock
  const env = process.env
  const hasCredentials =
    Boolean(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) ||
    Boolean(env.AWS_PROFILE) ||
    Boolean(env.AWS_WEB_IDENTITY_TOKEN_FILE) ||
    Boolean(env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || env.AWS_CONTAINER_CREDENTIALS_FULL_URI) ||
    (await access(join(homedir(), '.aws', 'credentials')).then(
      () => true,
      () => false,
    ))
  const region = v.region ?? env.AWS_DEFAULT_REGION
  if (!hasCredentials || !region)
    return {
      name: 'vision',
      status: 'fail',
      required: true,
      detail: `QA_VISION=bedrock but ${[!hasCredentials && 'no AWS credentials', !region && 'no region'].filter(Boolean).join(' and ')}`,
      fix: 'export AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… (or AWS_PROFILE=…); optional QA_BEDROCK_MODEL=<model or inference profile id>',
    }
  if (!probe)
    return {
      name: 'vision',
      status: 'ok',
      required: true,
      detail: `Bedrock in ${region}, credentials found (not called; add --probe-vision to make one tiny call)`,
    }
  try {
    const { BedrockRuntimeClient, ConverseCommand } = await import('@aws-sdk/client-bedrock-runtime')
    const client = new BedrockRuntimeClient({ region })
    const { DEFAULT_BEDROCK_MODEL } = await import('@qa/vision')
    const modelId = v.bedrockModel ?? DEFAULT_BEDROCK_MODEL
    await client.send(
      new ConverseCommand({
        modelId,
        messages: [{ role: 'user', content: [{ text: 'Reply with OK.' }] }],
        inferenceConfig: { maxTokens: 5 },
      }),
      { abortSignal: AbortSignal.timeout(15_000) },
    )
    return { name: 'vision', status: 'ok', required: true, detail: `Bedrock ${modelId} in ${region} answered` }
  } catch (error) {
    return {
      name: 'vision',
      status: 'fail',
      required: true,
      detail: `Bedrock call failed: ${(error as Error).name}: ${(error as Error).message.split('\n')[0]}`,
      fix: 'Check model access in the Bedrock console for this region, QA_BEDROCK_MODEL, and the credentials.',
    }
  }
}

async function checkRedis(): Promise<DoctorCheck> {
  const bin = await which('redis-server')
  return bin
    ? {
        name: 'redis',
        status: 'ok',
        required: false,
        detail: `redis-server at ${bin} (for qa serve --queue / qa worker)`,
      }
    : {
        name: 'redis',
        status: 'warn',
        required: false,
        detail: 'no redis-server (only needed to spread runs over several machines)',
        fix: 'sudo apt-get install redis-server',
      }
}

export class DoctorCommand extends QaCommand {
  static override paths = [['doctor']]
  static override usage = Command.Usage({
    description: 'Check that the parts qa needs are installed and working, and say how to fix what is not.',
    details: `
      Checks Node.js, Chromium (found and launchable), a Hangul font, the display for desktop work (and its X RECORD extension, which recording needs), the native
      input/screen modules, the configured vision provider (with the environment variables to set), OCR data,
      Redis, the configuration file, and which optional parts are installed (OCR, Bedrock, S3, queue, server, MCP,
      desktop, Playwright Test) with the command that installs each missing one. Exit code 0 when every required part works, 2 otherwise.
    `,
    examples: [
      ['Check the setup', '$0 doctor'],
      ['Also require the desktop parts', '$0 doctor --desktop'],
      ['Make one tiny Bedrock call to prove access', 'QA_VISION=bedrock $0 doctor --probe-vision'],
    ],
  })

  desktop = Option.Boolean('--desktop', false, { description: 'Require the desktop parts (display, uiohook, nut-js).' })
  probeVision = Option.Boolean('--probe-vision', false, { description: 'Make one tiny call to the vision provider.' })
  json = Option.Boolean('--json', false, { description: 'Print one JSON object, nothing else.' })
  configPath = Option.String('--config', { description: 'Config file (default ./qa.config.json when present).' })

  async run(): Promise<number> {
    const checks: DoctorCheck[] = []
    const major = Number(process.versions.node.split('.')[0])
    const minor = Number(process.versions.node.split('.')[1])
    checks.push(
      major > 20 || (major === 20 && minor >= 19)
        ? { name: 'node', status: 'ok', required: true, detail: `Node.js ${process.versions.node}` }
        : {
            name: 'node',
            status: 'fail',
            required: true,
            detail: `Node.js ${process.versions.node}; qa needs ≥ 20.19`,
            fix: 'Install Node.js 20.19 or newer.',
          },
    )
    let config: QaConfig | null = null
    try {
      const loaded = await loadConfig({ configPath: this.configPath })
      config = loaded.config
      checks.push({
        name: 'config',
        status: 'ok',
        required: true,
        detail: loaded.file ? `valid: ${loaded.file}` : 'defaults (no qa.config.json here)',
      })
    } catch (error) {
      checks.push({
        name: 'config',
        status: 'fail',
        required: true,
        detail: (error as Error).message,
        fix: (error as { hint?: string }).hint,
      })
    }
    if (config) checks.push(await checkChromium(config))
    checks.push(await checkKoreanFont())
    checks.push(await checkDisplay(this.desktop))
    const record = await checkRecord(this.desktop)
    if (record) checks.push(record)
    checks.push(await checkNative('uiohook-napi', this.desktop))
    checks.push(await checkNative('@nut-tree-fork/nut-js', this.desktop))
    if (config) checks.push(await checkVision(config, this.probeVision))
    checks.push(await checkRedis())
    for (const part of OPTIONAL_PARTS) checks.push(checkOptionalPart(part))

    const ok = checks.every((c) => !(c.required && c.status === 'fail'))
    if (this.json) {
      this.out(JSON.stringify({ ok, checks }))
      return ok ? EXIT_PASS : EXIT_USAGE
    }
    const colour = process.stdout.isTTY && !process.env.NO_COLOR
    const mark = (s: DoctorCheck['status']) => {
      const text = s === 'ok' ? '✓' : s === 'warn' ? '!' : '✗'
      if (!colour) return text
      return s === 'ok' ? `\x1b[32m${text}\x1b[0m` : s === 'warn' ? `\x1b[33m${text}\x1b[0m` : `\x1b[31m${text}\x1b[0m`
    }
    for (const c of checks) {
      this.out(`${mark(c.status)} ${c.name.padEnd(22)} ${c.detail}`)
      if (c.fix && c.status !== 'ok') this.out(`  ${' '.repeat(22)} fix: ${c.fix}`)
    }
    this.out('')
    this.out(ok ? 'Everything qa needs here works.' : 'Some required parts do not work; see the fixes above.')
    return ok ? EXIT_PASS : EXIT_USAGE
  }
}
