import { access, constants } from 'node:fs/promises'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { WebError } from '../errors'

/** Flags that make Chromium work on a closed network and in containers (no sandbox as root, no GPU). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-quic',
  '--font-render-hinting=none',
  '--force-color-profile=srgb',
  '--hide-scrollbars',
]

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium'

export interface LaunchOptions {
  /** Path of the Chromium binary; the CLI passes `QA_CHROMIUM`. Default /usr/bin/chromium. */
  executablePath?: string
  headless?: boolean
  /** Attach to a running browser instead (`ws://…` or `http://host:9222`). */
  cdpUrl?: string
  /**
   * Open the session's context in this browser, already launched and shared with other sessions (a worker
   * pool): no launch cost per session, the same isolation (each session has its own context).
   */
  browser?: Browser
  viewport?: { width: number; height: number }
  /** Device scale factor; 1 keeps screenshots the size of the viewport. */
  deviceScaleFactor?: number
  /** Extra Chromium flags. */
  args?: readonly string[]
  slowMoMs?: number
  /**
   * Let Playwright close the browser on SIGINT/SIGTERM/SIGHUP (default true). False when the caller stops on
   * Ctrl-C itself and still needs the browser meanwhile (recording by hand saves the steps so far).
   */
  handleSignals?: boolean
}

export interface BrowserSession {
  browser: Browser
  context: BrowserContext
  page: Page
  /** Closes what this session opened (an attached or shared browser is left running). */
  close(): Promise<void>
}

async function loadPlaywright() {
  return (await import('playwright-core')).chromium
}

/**
 * Launches Debian's Chromium with playwright-core (never downloads a browser), or attaches over CDP, and opens
 * one page with a fixed viewport and deterministic rendering settings.
 */
export async function openBrowser(opts: LaunchOptions = {}): Promise<BrowserSession> {
  const chromium = await loadPlaywright()
  const viewport = opts.viewport ?? { width: 1280, height: 720 }
  let browser: Browser
  let attached = false
  if (opts.browser) {
    browser = opts.browser
    attached = true
  } else if (opts.cdpUrl) {
    try {
      browser = await chromium.connectOverCDP(opts.cdpUrl, { timeout: 15_000 })
      attached = true
    } catch (cause) {
      throw new WebError('WEB_CDP_CONNECT_FAILED', `Could not attach to a browser at ${opts.cdpUrl}.`, {
        cause,
        hint: 'Start Chromium with --remote-debugging-port=9222 and pass its ws:// or http://127.0.0.1:9222 address.',
      })
    }
  } else {
    const executablePath = opts.executablePath ?? DEFAULT_CHROMIUM_PATH
    try {
      await access(executablePath, constants.X_OK)
    } catch (cause) {
      throw new WebError('WEB_BROWSER_NOT_FOUND', `No Chromium at ${executablePath}.`, {
        cause,
        hint: 'Install it with `sudo apt-get install chromium` (Debian/Ubuntu), or set QA_CHROMIUM to the path of a Chromium/Chrome binary.',
      })
    }
    try {
      browser = await chromium.launch({
        executablePath,
        headless: opts.headless ?? true,
        args: [...CHROMIUM_ARGS, ...(opts.args ?? [])],
        ...(opts.slowMoMs ? { slowMo: opts.slowMoMs } : {}),
        ...(opts.handleSignals === false ? { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } : {}),
        timeout: 60_000,
      })
    } catch (cause) {
      const headed = opts.headless === false
      throw new WebError(
        'WEB_BROWSER_LAUNCH_FAILED',
        `Chromium at ${executablePath} did not start: ${(cause as Error).message.split('\n')[0]}`,
        {
          cause,
          hint: headed
            ? 'A headed browser needs a display: run under `xvfb-run`, or set DISPLAY, or drop --headed.'
            : 'Run `qa doctor` to check the browser setup.',
        },
      )
    }
  }
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: opts.deviceScaleFactor ?? 1,
    bypassCSP: true,
    reducedMotion: 'reduce',
    colorScheme: 'light',
    locale: 'ko-KR',
    timezoneId: 'UTC',
  })
  const page = await context.newPage()
  return {
    browser,
    context,
    page,
    async close() {
      await context.close().catch(() => undefined)
      if (!attached) await browser.close().catch(() => undefined)
    },
  }
}

/**
 * Attaches over CDP to a browser the person already runs and returns the tab they are on (the visible, focused
 * one; else the first visible one), in their own profile. `close()` only disconnects: their browser, tabs and
 * pages stay as they are.
 */
export async function attachToCurrentTab(cdpUrl: string): Promise<BrowserSession> {
  const chromium = await loadPlaywright()
  let browser: Browser
  try {
    browser = await chromium.connectOverCDP(cdpUrl, { timeout: 15_000 })
  } catch (cause) {
    throw new WebError('WEB_CDP_CONNECT_FAILED', `Could not attach to a browser at ${cdpUrl}.`, {
      cause,
      hint: 'Start Chrome or Chromium with --remote-debugging-port=9222 and pass --cdp http://127.0.0.1:9222 (or its ws:// address).',
    })
  }
  const pages = browser.contexts().flatMap((c) => c.pages())
  const states = await Promise.all(
    pages.map((p) =>
      p
        .evaluate(() => ({ visible: document.visibilityState === 'visible', focused: document.hasFocus() }))
        .catch(() => ({ visible: false, focused: false })),
    ),
  )
  // the focused visible tab, else a visible one, else any; among equals a page over an empty tab (a headless or
  // unfocused browser reports every tab visible, and a blank new tab is not where anyone records)
  const rank = (i: number) => {
    const s = states[i] as { visible: boolean; focused: boolean }
    const blank = /^(about:blank|chrome:\/\/newtab)/.test(pages[i]?.url() ?? '')
    return (s.visible && s.focused ? 4 : 0) + (s.visible ? 2 : 0) + (blank ? 0 : 1)
  }
  const pick = pages.map((_, i) => i).sort((a, b) => rank(b) - rank(a) || a - b)[0]
  const page = pick === undefined ? undefined : pages[pick]
  if (!page) {
    await browser.close().catch(() => undefined)
    throw new WebError('WEB_CDP_NO_TAB', `The browser at ${cdpUrl} has no open tab to record in.`, {
      hint: 'Open the page you want to record in a tab of that browser, then run the command again.',
    })
  }
  return {
    browser,
    context: page.context(),
    page,
    async close() {
      // disconnects; a browser Playwright did not launch keeps running, with the person's tabs
      await browser.close().catch(() => undefined)
    },
  }
}

/** Navigates, turning connection errors into a clear "unknown URL/port" error. */
export async function gotoOrExplain(page: Page, url: string, timeoutMs = 30_000): Promise<void> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch (cause) {
    throw new WebError('WEB_BAD_URL', `"${url}" is not a URL.`, {
      cause,
      hint: 'Give a full URL such as http://127.0.0.1:3000/.',
    })
  }
  try {
    await page.goto(parsed.href, { waitUntil: 'load', timeout: timeoutMs })
  } catch (cause) {
    const message = (cause as Error).message
    const unreachable =
      /ERR_CONNECTION_REFUSED|ERR_NAME_NOT_RESOLVED|ERR_ADDRESS_UNREACHABLE|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|Timeout/i.test(
        message,
      )
    const unsafePort = /ERR_UNSAFE_PORT/.test(message)
    throw new WebError('WEB_URL_UNREACHABLE', `Could not open ${parsed.href}: ${message.split('\n')[0]}`, {
      cause,
      hint: unsafePort
        ? `Chromium refuses port ${parsed.port} (a port it blocks for safety); serve the app on another port.`
        : unreachable
          ? 'Is the app running, on that host and port? Start it, or pass the right --url.'
          : undefined,
    })
  }
}
