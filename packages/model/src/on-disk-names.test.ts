// Golden test of the on-disk names: the generated round trips use the codec's own schema tables, so a
// misspelt snake_case name would round-trip unnoticed. Here every name is spelt out by hand.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadTestCase, saveTestCase } from './node'

const box = { x: 1, y: 2, width: 30, height: 40 }
const identity = {
  ax_role: 'button',
  ax_name: 'Sign in',
  aria_label: 'Sign in now',
  data_test_id: 'login-submit',
  name: 'submit',
  tag_name: 'button',
  type: 'submit',
  placeholder: 'ph',
  bounding_box: box,
  visual_hash: 'abcd',
  text_content: 'Sign in',
  captured_at: 1700000000000,
}
const action = {
  timestamp: '2024-01-02T03:04:05.000Z',
  action_type: 'click',
  x: 11,
  y: 12,
  button: 'left',
  key: 'Enter',
  text: '****',
  secret_env: 'QA_SECRET_PASSWORD',
  scroll_dx: 3,
  scroll_dy: -4,
  duration_ms: 250,
  description: 'click Sign in',
  screenshot_before_path: 'shots/before.png',
  screenshot_path: 'shots/after.png',
  unknown_regions: { before: [{ x: 1060, y: 640, width: 220, height: 80 }], after: [] },
  animated_regions: [{ x: 16, y: 32, width: 48, height: 16 }],
  ui_state_hash_before: '0011',
  ui_state_hash_after: '2233',
  semantic_info: {
    intent: 'sign_in',
    target_element: {
      type: 'button',
      text: 'Sign in',
      description: 'the blue button',
      bounding_box: box,
      confidence: 0.9,
      visual_features: { color: 'blue' },
      relative_position: 'center',
    },
    context: { screen_state: 'login', nearby_elements: ['Password'], expected_result: 'home' },
  },
  screen_transition: { changed: true, transition_type: 'scene_change', hash_difference: 21, result_state: 'home' },
  identity,
  selectors: { css: '#submit', xpath: '//button', fallbacks: ['button[type=submit]'] },
  healing_history: [],
  enrichment_status: 'enriched',
}
const doc = {
  name: 'login',
  version: '3.2',
  platform: 'web',
  created_at: '2024-01-02T03:04:05.000Z',
  enriched_at: '2024-01-03T03:04:05.000Z',
  start_url: 'http://127.0.0.1:4000/login',
  viewport: { width: 1280, height: 720 },
  screen: { width: 1920, height: 1080, scale: 2 },
  actions: [action],
}

const sortedKeys = (o: object) => Object.keys(o).sort()

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'qa-golden-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('on-disk names', () => {
  it('loads every snake_case field into its camelCase model field and writes the same names back', async () => {
    await writeFile(join(dir, 'in.json'), JSON.stringify(doc))
    const { testCase: tc } = await loadTestCase(join(dir, 'in.json'))
    expect(tc).toMatchObject({
      name: 'login',
      version: '3.2',
      platform: 'web',
      createdAt: doc.created_at,
      enrichedAt: doc.enriched_at,
      startUrl: doc.start_url,
      viewport: { width: 1280, height: 720 },
      screen: { width: 1920, height: 1080, scale: 2 },
    })
    const a = tc.actions[0]
    expect(a).toMatchObject({
      timestamp: action.timestamp,
      actionType: 'click',
      x: 11,
      y: 12,
      button: 'left',
      key: 'Enter',
      text: '****',
      secretEnv: 'QA_SECRET_PASSWORD',
      scrollDx: 3,
      scrollDy: -4,
      durationMs: 250,
      description: 'click Sign in',
      screenshotBeforePath: 'shots/before.png',
      screenshotPath: 'shots/after.png',
      unknownRegions: { before: [{ x: 1060, y: 640, width: 220, height: 80 }], after: [] },
      animatedRegions: [{ x: 16, y: 32, width: 48, height: 16 }],
      uiStateHashBefore: '0011',
      uiStateHashAfter: '2233',
      semanticInfo: {
        intent: 'sign_in',
        targetElement: {
          type: 'button',
          text: 'Sign in',
          description: 'the blue button',
          boundingBox: box,
          confidence: 0.9,
          visualFeatures: { color: 'blue' },
          relativePosition: 'center',
        },
        context: { screenState: 'login', nearbyElements: ['Password'], expectedResult: 'home' },
      },
      screenTransition: { changed: true, transitionType: 'scene_change', hashDifference: 21, resultState: 'home' },
      identity: {
        axRole: 'button',
        axName: 'Sign in',
        ariaLabel: 'Sign in now',
        dataTestId: 'login-submit',
        name: 'submit',
        tagName: 'button',
        type: 'submit',
        placeholder: 'ph',
        boundingBox: box,
        visualHash: 'abcd',
        textContent: 'Sign in',
        capturedAt: 1700000000000,
      },
      selectors: { css: '#submit', xpath: '//button', fallbacks: ['button[type=submit]'] },
      healingHistory: [],
      enrichmentStatus: 'enriched',
    })
    // nothing was understood as an unknown field: every name above is a known one
    expect((tc as { extra?: unknown }).extra).toBeUndefined()
    expect((a as { extra?: unknown }).extra).toBeUndefined()

    await saveTestCase(join(dir, 'out.json'), tc)
    const out = JSON.parse(await readFile(join(dir, 'out.json'), 'utf8'))
    expect(sortedKeys(out)).toEqual(
      ['name', 'version', 'platform', 'created_at', 'enriched_at', 'start_url', 'viewport', 'screen', 'actions'].sort(),
    )
    const o = out.actions[0]
    expect(sortedKeys(o)).toEqual(sortedKeys(action))
    expect(sortedKeys(o.semantic_info)).toEqual(['context', 'intent', 'target_element'])
    expect(sortedKeys(o.semantic_info.target_element)).toEqual(
      ['type', 'text', 'description', 'bounding_box', 'confidence', 'visual_features', 'relative_position'].sort(),
    )
    expect(sortedKeys(o.semantic_info.context)).toEqual(['expected_result', 'nearby_elements', 'screen_state'])
    expect(sortedKeys(o.screen_transition)).toEqual(['changed', 'hash_difference', 'result_state', 'transition_type'])
    expect(sortedKeys(o.identity)).toEqual(sortedKeys(identity))
    expect(sortedKeys(o.selectors)).toEqual(['css', 'fallbacks', 'xpath'])
    expect(sortedKeys(out.screen)).toEqual(['height', 'scale', 'width'])
    expect(out).toEqual(doc)
  })
})
