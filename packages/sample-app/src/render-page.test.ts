import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { type MutationName, mutationNames, versionPresets } from './mutations'
import { renderPage } from './render-page'
import { type SamplePage, sampleTargets } from './targets'

const pages: readonly SamplePage[] = ['/login', '/list', '/settings', '/widgets', '/frame', '/frame-inner']
const withHeader = new Set<SamplePage>(['/list', '/settings', '/widgets', '/frame'])

/** Ground-truth markers in order of appearance (also inside the JSON-embedded shadow HTML). */
function truthIds(html: string): string[] {
  return [...html.matchAll(/data-t=\\?"([^"\\]+)\\?"/g)].map((m) => m[1]!)
}
function elementIds(html: string): string[] {
  return [...html.matchAll(/\sid=\\?"([^"\\]+)\\?"/g)].map((m) => m[1]!)
}
/** The opening tag of the element carrying a truth marker. */
function tagOf(html: string, truth: string): string {
  const at = html.indexOf(`data-t="${truth}"`)
  expect(at, `${truth} missing`).toBeGreaterThan(-1)
  return html.slice(html.lastIndexOf('<', at), html.indexOf('>', at) + 1)
}

function expectedTruths(page: SamplePage, mutations: readonly MutationName[]): string[] {
  const decoys = mutations.includes('decoy-siblings') || mutations.includes('removal')
  const removal = mutations.includes('removal')
  const out = sampleTargets
    .filter((t) => t.page === page || (t.truth.startsWith('nav.') && withHeader.has(page)))
    .filter((t) => (t.decoy ? decoys : true))
    .filter((t) => !(removal && t.removedBy === 'removal'))
    .map((t) => t.truth)
  if (page === '/list') for (let i = 2; i <= 20; i++) out.push(`list.item.${i}`)
  return out.sort()
}

describe('renderPage', () => {
  it('is deterministic: same options, byte-identical HTML', () => {
    for (const page of pages) {
      expect(renderPage(page, { mutations: versionPresets.v2 })).toBe(
        renderPage(page, { mutations: versionPresets.v2 }),
      )
    }
  })

  it('renders the v1 login with Korean labels, the icon nested in the button and the v1 names', () => {
    const html = renderPage('/login')
    expect(html).toContain('<html lang="ko">')
    expect(html).toContain('"Noto Sans CJK KR"')
    expect(html).toContain('<label for="username">아이디</label>')
    expect(html).toContain('placeholder="비밀번호를 입력하세요"')
    expect(tagOf(html, 'login.submit')).toBe(
      '<button id="login-btn" class="btn btn-primary" type="submit" data-t="login.submit">',
    )
    expect(html).toMatch(/data-t="login.submit"><span class="icon" aria-hidden="true"><svg/)
    expect(tagOf(html, 'login.remember')).toContain('type="checkbox"')
    expect(truthIds(html)).not.toContain('login.quick')
    expect(html).not.toContain('role="note"')
  })

  it('has no clock, randomness or animation in the page script', () => {
    for (const page of pages) {
      const html = renderPage(page, { mutations: versionPresets.v2 })
      expect(html).not.toMatch(/Math\.random|Date\.now|new Date|setTimeout|setInterval|requestAnimationFrame/)
      expect(html).toContain('animation:none!important')
    }
  })

  it('renamed-ids renames ids (labels follow) and nothing else', () => {
    const v1 = renderPage('/login')
    const html = renderPage('/login', { mutations: ['renamed-ids'] })
    expect(tagOf(html, 'login.submit')).toBe(
      '<button id="signin-button" class="btn btn-primary" type="submit" data-t="login.submit">',
    )
    expect(html).toContain('<label for="user-id">아이디</label>')
    expect(tagOf(html, 'login.username')).toContain('name="username"')
    const strip = (h: string) => h.replace(/\sid="[^"]*"|\sfor="[^"]*"|var VARIANT = .*;/g, '')
    expect(strip(html)).toBe(strip(v1))
  })

  it('renamed-classes swaps class names but keeps ids and texts', () => {
    const html = renderPage('/login', { mutations: ['renamed-classes'] })
    expect(tagOf(html, 'login.submit')).toBe(
      '<button id="login-btn" class="button--primary" type="submit" data-t="login.submit">',
    )
    expect(html).toContain('.button--primary{')
    expect(html).not.toContain('btn-primary')
    const list = renderPage('/list', { mutations: ['renamed-classes'] })
    expect(tagOf(list, 'list.item.1')).toContain('class="product-tile css-')
    expect(tagOf(list, 'nav.list')).toContain('class="navigation__link"')
  })

  it('extra-wrappers wraps buttons in a display:contents div', () => {
    const html = renderPage('/settings', { mutations: ['extra-wrappers'] })
    expect(html).toContain('<div class="btn-wrap"><button id="save-btn"')
    expect(html).toContain('.btn-wrap{display:contents}')
    const widgets = renderPage('/widgets', { mutations: ['extra-wrappers'] })
    expect(widgets).toContain('\\u003cdiv class=\\"btn-wrap\\"\\u003e\\u003cbutton id=\\"add-btn\\"')
  })

  it('layout-shift adds an 80 px banner slot on every page with a header', () => {
    for (const page of ['/login', '/list', '/settings', '/widgets', '/frame'] as const) {
      expect(renderPage(page, { mutations: ['layout-shift'] })).toContain('<div class="update-banner-slot">')
    }
    expect(renderPage('/login', { mutations: ['layout-shift'] })).toContain(
      '.update-banner-slot{display:flow-root;height:80px}',
    )
  })

  it('reworded-labels rewords names but keeps ids and classes', () => {
    const login = renderPage('/login', { mutations: ['reworded-labels'] })
    expect(login).toContain('<span>로그인하기</span>')
    expect(login).toContain('<label for="username">사용자 아이디</label>')
    const list = renderPage('/list', { mutations: ['reworded-labels'] })
    expect(list).toContain('<span>추가</span>')
    expect(tagOf(list, 'list.search')).toContain('placeholder="아이템 이름으로 찾기"')
    expect(tagOf(list, 'list.search')).toContain('aria-label="아이템 검색"')
    expect(renderPage('/settings', { mutations: ['reworded-labels'] })).toContain('<span>저장하기</span>')
  })

  it('tag-changes turns logout and create into <a role=button> and cards into <div role=button>', () => {
    const html = renderPage('/list', { mutations: ['tag-changes'] })
    expect(tagOf(html, 'nav.logout')).toBe(
      '<a id="logout-btn" class="btn btn-ghost" role="button" href="/logout" data-t="nav.logout">',
    )
    expect(tagOf(html, 'list.create')).toMatch(/^<a id="create-btn" class="btn btn-primary" role="button" href="#new"/)
    expect(tagOf(html, 'list.item.3')).toMatch(/^<div role="button" tabindex="0" id="item-3"/)
    expect(tagOf(renderPage('/list'), 'nav.logout')).toMatch(/^<button id="logout-btn"/)
  })

  it('decoy-siblings puts a same-class decoy before the real target', () => {
    const html = renderPage('/settings', { mutations: ['decoy-siblings'] })
    const draft = tagOf(html, 'settings.draft')
    const save = tagOf(html, 'settings.save')
    expect(draft).toContain('class="btn btn-primary"')
    expect(save).toContain('class="btn btn-primary"')
    expect(html.indexOf('data-t="settings.draft"')).toBeLessThan(html.indexOf('data-t="settings.save"'))
    const login = renderPage('/login', { mutations: ['decoy-siblings'] })
    expect(login.indexOf('간편 로그인')).toBeLessThan(login.indexOf('data-t="login.submit"'))
  })

  it('reordered-blocks moves Save to the top and reorders the settings blocks', () => {
    const v1 = renderPage('/settings')
    const html = renderPage('/settings', { mutations: ['reordered-blocks'] })
    expect(v1.indexOf('data-block="language"')).toBeLessThan(v1.indexOf('data-block="theme"'))
    expect(html.indexOf('data-block="theme"')).toBeLessThan(html.indexOf('data-block="language"'))
    expect(v1.indexOf('data-t="settings.save"')).toBeGreaterThan(v1.indexOf('data-block="theme"'))
    expect(html.indexOf('data-t="settings.save"')).toBeLessThan(html.indexOf('data-block="theme"'))
  })

  it('removal drops the target and keeps the similar element', () => {
    for (const target of sampleTargets.filter((t) => t.removedBy === 'removal')) {
      const html = renderPage(target.page, { mutations: ['removal'] })
      expect(truthIds(html), target.truth).not.toContain(target.truth)
      expect(truthIds(html), target.truth).toContain(target.similar)
    }
  })

  it('css-<hash> classes follow the seed and the class version, not the other mutations', () => {
    const hashes = (html: string) => [...html.matchAll(/css-[0-9a-z]{6}/g)].map((m) => m[0])
    const base = hashes(renderPage('/widgets'))
    expect(base.length).toBeGreaterThan(0)
    expect(hashes(renderPage('/widgets', { classSeed: 0 }))).toEqual(base)
    expect(hashes(renderPage('/widgets', { classSeed: 7 }))).not.toEqual(base)
    expect(hashes(renderPage('/widgets', { mutations: ['renamed-classes'] }))).not.toEqual(base)
    expect(hashes(renderPage('/widgets', { mutations: ['layout-shift'] }))).toEqual(base)
  })

  // Own invariant (no seed property): for ANY combination of mutations, every page holds exactly the expected
  // ground-truth targets once each (decoys iff decoy-siblings/removal, targets gone iff removal) and no duplicate ids.
  test.prop([fc.subarray([...mutationNames]), fc.constantFrom(...pages), fc.integer({ min: 0, max: 1000 })], {
    numRuns: 100,
  })('every combination keeps the ground-truth catalogue consistent', (mutations, page, seed) => {
    const html = renderPage(page, { mutations, classSeed: seed })
    expect(truthIds(html).sort()).toEqual(expectedTruths(page, mutations))
    const ids = elementIds(html)
    expect(new Set(ids).size).toBe(ids.length)
  })
})
