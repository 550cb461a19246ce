import { describe, expect, test } from 'vitest'
import { inferIntent, normalizeIntent } from './infer-intent'

describe('inferIntent (_infer_intent)', () => {
  test.each([
    [{ type: 'button', description: '게임 입장 버튼' }, 'enter_game'],
    [{ type: 'button', text: 'Enter' }, 'enter_game'],
    [{ type: 'icon', description: '설정 열기' }, 'open_settings'],
    [{ type: 'icon', text: 'Settings' }, 'open_settings'],
    [{ type: 'button', text: '확인' }, 'confirm_action'],
    [{ type: 'button', text: 'OK' }, 'confirm_action'],
    [{ type: 'button', text: 'Book store' }, 'click_button'],
    [{ type: 'button', text: 'Center view' }, 'click_button'],
    [{ type: 'text_field', text: 'name' }, 'click_text_field'],
    [{}, 'click_unknown'],
  ])('%o → %s', (element, intent) => {
    expect(inferIntent(element)).toBe(intent)
  })

  test('an intent the model gave is preferred, normalised to snake_case', () => {
    expect(inferIntent({ type: 'button', text: '확인', intent: 'Start Match' })).toBe('start_match')
    expect(inferIntent({ type: 'button' }, { changed: true, intent: 'close_dialog' } as never)).toBe('close_dialog')
    expect(inferIntent({ type: 'button', text: 'OK', intent: '  ' })).toBe('confirm_action')
    expect(normalizeIntent('Open  Settings!')).toBe('open_settings')
  })
})
