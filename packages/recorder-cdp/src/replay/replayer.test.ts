import { describe, expect, it } from 'vitest'
import { createSecretNamer, secretEnvName } from '../record/secret-names'
import { rebaseUrl } from './url-plan'

describe('rebaseUrl', () => {
  it('moves recorded URLs of the recorded origin to the override origin, keeping path, query and hash', () => {
    expect(
      rebaseUrl('http://127.0.0.1:4173/list?q=검#top', 'http://127.0.0.1:4173/login', 'http://127.0.0.1:5000/'),
    ).toBe('http://127.0.0.1:5000/list?q=%EA%B2%80#top')
  })
  it('leaves other origins and the no-override case alone', () => {
    expect(rebaseUrl('https://example.com/a', 'http://127.0.0.1:4173/', 'http://127.0.0.1:5000/')).toBe(
      'https://example.com/a',
    )
    expect(rebaseUrl('http://127.0.0.1:4173/a', 'http://127.0.0.1:4173/', undefined)).toBe('http://127.0.0.1:4173/a')
  })
})

describe('secretEnvName', () => {
  it('names the variable after the field', () => {
    expect(secretEnvName('QA_SECRET_', { name: 'password' })).toBe('QA_SECRET_PASSWORD')
    expect(secretEnvName('QA_SECRET_', { id: 'user-pw' })).toBe('QA_SECRET_USER_PW')
    expect(secretEnvName('QA_SECRET_', { axName: '비밀번호' })).toBe('QA_SECRET_PASSWORD')
  })
})

describe('createSecretNamer (two different passwords must not share one QA_SECRET_ name)', () => {
  it('gives each distinct password field its own name, and the same field the same name', () => {
    const name = createSecretNamer('QA_SECRET_')
    const page = 'http://127.0.0.1:4173/account?tab=pw'
    const current = { axName: '현재 비밀번호', xpath: '/html/body/form/input[1]' }
    const next = { axName: '새 비밀번호', xpath: '/html/body/form/input[2]' }
    expect(name(current, page)).toBe('QA_SECRET_PASSWORD')
    expect(name(next, page)).toBe('QA_SECRET_PASSWORD_2')
    expect(name(current, 'http://127.0.0.1:4173/account?tab=other')).toBe('QA_SECRET_PASSWORD')
    expect(name({ name: 'password', xpath: '/html/body/input' }, 'http://127.0.0.1:4173/login')).toBe(
      'QA_SECRET_PASSWORD_3',
    )
    expect(name({ id: 'pin' }, page)).toBe('QA_SECRET_PIN')
  })
})
