import { recordedTargetObjection } from '@qa/matcher'
import type { Action, TestCase } from '@qa/model'
import { commentText, jsNumber, jsString as str } from './internal/source-text'

export interface PlaywrightExportOptions {
  /** How the spec imports the case: the case path relative to the spec file (`./login.json`). */
  casePath: string
  /** The test's title (default: the case name). */
  title?: string
}

export interface PlaywrightExportResult {
  source: string
  /** Steps that could not be written faithfully, as `actions[i] (type): why`. */
  warnings: string[]
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `button "로그인" · test id "login"`: what a reader needs to see which element a line acts on. */
function describeTarget(action: Action): string {
  const id = action.identity
  if (!id) return `(${jsNumber(action.x)}, ${jsNumber(action.y)})`
  const name = commentText(id.axName || id.ariaLabel || id.textContent || id.placeholder || id.name || '', 60)
  const parts = [`${commentText(id.axRole || id.tagName || '', 30)}${name ? ` "${name}"` : ''}`]
  if (id.dataTestId) parts.push(`test id "${commentText(id.dataTestId, 60)}"`)
  return parts.join(' · ')
}

/**
 * A readable Playwright Test spec from a recorded web case, in codegen style: one line per step naming its
 * element (role, name, test id), each element found with `heal(page).fromCase(…)` so the spec survives a
 * redesign, and the recorded assertions as `expect` lines. Pure: the caller writes the file.
 */
export function exportPlaywrightTest(testCase: TestCase, opts: PlaywrightExportOptions): PlaywrightExportResult {
  const warnings: string[] = []
  const origin = (() => {
    try {
      return testCase.startUrl ? new URL(testCase.startUrl).origin : null
    } catch {
      return null
    }
  })()
  /** A recorded URL on the recorded origin becomes relative to `baseURL`; any other stays as it was. */
  const url = (u: string): string => {
    if (origin && u.startsWith(origin)) {
      const path = u.slice(origin.length) || '/'
      return `at(${str(path)}, baseURL)`
    }
    return str(u)
  }
  const step = (i: number) => `heal(page).fromCase(recorded, ${i})`
  const lines: string[] = []
  if (testCase.startUrl) lines.push(`await page.goto(${url(testCase.startUrl)})`)
  for (const [i, action] of testCase.actions.entries()) {
    const what = describeTarget(action)
    const warn = (why: string) => warnings.push(`actions[${i}] (${action.actionType}): ${why}`)
    // a recorded body/html (or an empty identity) is not a target: like `qa replay`, only its point is used
    const objection = action.identity ? recordedTargetObjection(action.identity) : null
    const target = action.identity && !objection ? step(i) : null
    switch (action.actionType) {
      case 'navigate':
        if (action.url) lines.push(`await page.goto(${url(action.url)})`)
        else warn('has no URL; skipped')
        break
      case 'wait':
        lines.push(`await page.waitForTimeout(${jsNumber(Math.min(action.durationMs ?? 0, 60_000))})`)
        break
      case 'scroll':
        lines.push(`await page.mouse.wheel(${jsNumber(action.scrollDx)}, ${jsNumber(action.scrollDy)})`)
        break
      case 'key_press':
        if (action.key) lines.push(`await page.keyboard.press(${str(action.key)})`)
        else warn('has no key; skipped')
        break
      case 'type': {
        const env = action.secretEnv
        // a plain variable name reads as `process.env.NAME`; anything else only as a string literal
        const text = env
          ? `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(env) ? `process.env.${env}` : `process.env[${str(env)}]`} ?? ''`
          : str(action.text ?? '')
        const note = action.secretEnv ? ` (secret from $${commentText(action.secretEnv, 60)})` : ''
        if (target) lines.push(`await ${target}.fill(${text}) // ${what}${note}`)
        else lines.push(`await page.keyboard.type(${text}) // into the focused field${note}`)
        break
      }
      case 'select':
        if (target) lines.push(`await ${target}.selectOption({ label: ${str(action.value ?? '')} }) // ${what}`)
        else warn('has no element identity; skipped')
        break
      case 'assert':
        lines.push(...assertLines(action, i, what, url))
        break
      case 'drag':
        lines.push(`// actions[${i}]: drag ${what} — not exported (Playwright needs explicit source and target)`)
        warn('drags are not exported')
        break
      default: {
        const call =
          action.actionType === 'double_click'
            ? 'dblclick()'
            : action.actionType === 'right_click'
              ? "click({ button: 'right' })"
              : 'click()'
        if (target) lines.push(`await ${target}.${call} // ${what}`)
        else {
          const button = action.actionType === 'right_click' ? ", { button: 'right' }" : ''
          const count = action.actionType === 'double_click' ? ', { clickCount: 2 }' : ''
          lines.push(
            `await page.mouse.click(${jsNumber(action.x)}, ${jsNumber(action.y)}${button}${count}) // recorded point only`,
          )
          warn(
            `${objection ? `its recorded target is not a real target (${objection})` : 'has no element identity'}; exported as a click at the recorded point, which cannot heal`,
          )
        }
      }
    }
  }
  const source = [
    `// Exported by \`qa export playwright\` from ${commentText(opts.casePath, 120)} ("${commentText(testCase.name, 120)}").`,
    "// Each element is found by qa's healing cascade (heal), so the test survives a redesign; the recorded",
    '// identities stay in the case file.',
    "import { expect, heal, test } from '@qa/playwright'",
    '',
    `const recorded = ${str(opts.casePath)}`,
    origin
      ? `// Recorded on ${commentText(origin, 120)}; set \`use.baseURL\` in playwright.config.ts to run against another server.\nconst at = (path: string, baseURL?: string) => new URL(path, baseURL ?? ${str(origin)}).href`
      : null,
    '',
    `test(${str(opts.title ?? testCase.name)}, async ({ page${origin ? ', baseURL' : ''} }) => {`,
    ...lines.map((l) => `  ${l}`),
    '})',
    '',
  ]
    .filter((l): l is string => l !== null)
    .join('\n')
  // `expect` is imported for the assertion lines; keep the import list honest when there are none
  const usesExpect = lines.some((l) => l.includes('expect('))
  return {
    source: usesExpect ? source : source.replace('import { expect, heal, test }', 'import { heal, test }'),
    warnings,
  }
}

function assertLines(action: Action, i: number, what: string, url: (u: string) => string): string[] {
  const a = action.assertion
  if (!a) return [`// actions[${i}]: an assert step without an assertion — skipped`]
  const op = a.op ?? 'equals'
  const expected = a.expected
  const locator = `await heal(page).fromCase(recorded, ${i}).locator()`
  /** A regular expression built from a string literal, never a regex literal spliced from the case. */
  const pattern = (v: unknown) => `new RegExp(${str(String(v ?? ''))})`
  switch (a.kind) {
    case 'url':
      if (op === 'equals') return [`await expect(page).toHaveURL(${url(String(expected ?? ''))})`]
      if (op === 'contains') return [`await expect(page).toHaveURL(${pattern(escapeRegExp(String(expected ?? '')))})`]
      return [`await expect(page).toHaveURL(${pattern(expected)})`]
    case 'visible':
      return [`await expect(${locator}).toBeVisible() // ${what}`]
    case 'checked':
      return [`await expect(${locator})${expected === false ? '.not' : ''}.toBeChecked() // ${what}`]
    case 'text':
    case 'value': {
      const matcher = a.kind === 'value' ? 'toHaveValue' : op === 'contains' ? 'toContainText' : 'toHaveText'
      if (a.kind === 'value' && op === 'contains')
        return [`await expect(${locator}).toHaveValue(${pattern(escapeRegExp(String(expected ?? '')))}) // ${what}`]
      const value = op === 'matches' ? pattern(expected) : str(String(expected ?? ''))
      return [`await expect(${locator}).${matcher}(${value}) // ${what}`]
    }
    default:
      // hidden, count and the rest: the recorded assertion, checked the way `qa replay` checks it
      return [`await heal(page).fromCase(recorded, ${i}).assert() // ${commentText(String(a.kind), 20)} of ${what}`]
  }
}
