/**
 * Healing accuracy on synthetic mutated pages. A page is a grid of cards (a heading and 4–5 controls each:
 * buttons, links, inputs; labels repeat across cards, some cards hold a qualified pair like 저장 / 임시 저장),
 * recorded once, then mutated the way releases do; the replay is judged by the element handle it returns.
 * Kinds: renamed ids/classes, wrapper, layout shift, reworded label, tag change (button → a[role=button]),
 * a same-class decoy, reordered blocks, combinations of 2–3, and removal (target gone, similar elements
 * remain; half of the time a same-class decoy takes its place, as in the Chromium login failure).
 */
import type { ElementIdentity } from '@qa/model'
import {
  type CandidateElement,
  type CandidateSource,
  countSameLabel,
  type LocateOptions,
  locate,
  memoryCandidateSource,
} from '@qa/matcher'
import { rng } from '@qa/matcher/testing'

type El = CandidateElement<number>

/** [label, a rewording a release might ship]. */
const LABELS: [string, string][] = [
  ['Save', 'Save changes'],
  ['Cancel', 'Cancel now'],
  ['Sign in', 'Sign in now'],
  ['Delete', 'Delete item'],
  ['Edit', 'Edit details'],
  ['Submit', 'Submit order'],
  ['Next', 'Next step'],
  ['Settings', 'Open settings'],
  ['저장', '저장하기'],
  ['취소', '취소하기'],
  ['로그인', '로그인하기'],
  ['검색', '검색하기'],
  ['확인', '확인하기'],
  ['다음', '다음 단계'],
  ['삭제', '삭제하기'],
  ['수정', '수정하기'],
]
/** Pairs that live side by side on real pages: a label and a qualified variant of it. */
const QUALIFIED: [string, string][] = [
  ['저장', '임시 저장'],
  ['Save', 'Save draft'],
  ['로그인', '간편 로그인'],
  ['검색', '상세 검색'],
]
const HEADINGS = [
  'Orders',
  'Profile',
  'Billing',
  '주문 내역',
  '회원 정보',
  'Shipping',
  '알림 설정',
  'Security',
  '장바구니',
]
const INPUTS = [
  ['email', 'Email', 'you@example.com'],
  ['query', '검색어', '검색어를 입력하세요'],
  ['name', 'Name', 'Your name'],
  ['phone', '전화번호', '010-0000-0000'],
]

const hex = (r: () => number) =>
  Math.floor(r() * 0xffffff)
    .toString(16)
    .padStart(6, '0')

interface Page {
  elements: El[]
  /** Generated class hash per control kind (a restyle changes them all). */
  hash: string
}

function makePage(seed: number): Page {
  const r = rng(seed)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T
  const hash = hex(r)
  const elements: El[] = []
  const cards = 8
  let handle = 0
  for (let c = 0; c < cards; c++) {
    const heading = `${pick(HEADINGS)} ${c + 1}`
    const labels: string[] = []
    if (r() < 0.4) labels.push(...pick(QUALIFIED))
    while (labels.length < 4) {
      const l = pick(LABELS)[0]
      if (!labels.includes(l)) labels.push(l)
    }
    const withInput = r() < 0.5
    const cx = 40 + (c % 2) * 700
    const cy = 100 + Math.floor(c / 2) * 260
    const card: El[] = []
    const tagCount: Record<string, number> = {}
    const add = (e: Omit<El, 'xpath' | 'handle'>) => {
      const tag = e.tagName as string
      tagCount[tag] = (tagCount[tag] ?? 0) + 1
      card.push({ ...e, handle: handle++, xpath: `/html/body/main/section[${c + 1}]/div/${tag}[${tagCount[tag]}]` })
    }
    if (withInput) {
      const [name, label, placeholder] = pick(INPUTS) as [string, string, string]
      add({
        axRole: 'textbox',
        axName: label,
        tagName: 'input',
        type: 'text',
        name,
        placeholder,
        id: r() < 0.5 ? `${name}-${c}` : null,
        classNames: ['field', `css-${hash}i`],
        boundingBox: { x: cx + 20, y: cy + 50, width: 300, height: 36 },
      })
    }
    labels.forEach((label, j) => {
      const link = r() < 0.2
      const slug = label.toLowerCase().replace(/\s+/g, '-')
      const idRoll = r()
      add({
        axRole: link ? 'link' : 'button',
        axName: label,
        tagName: link ? 'a' : 'button',
        textContent: label,
        href: link ? `/${c}/${j}` : null,
        id: idRoll < 0.4 ? `${/^[a-z-]+$/.test(slug) ? slug : 'btn'}-${c}-${j}` : idRoll < 0.6 ? `r-${hex(r)}` : null,
        classNames: link
          ? ['link', `css-${hash}l`]
          : ['btn', j === 0 ? 'btn-primary' : 'btn-secondary', `css-${hash}b`],
        boundingBox: { x: cx + 20 + j * 150, y: cy + 110, width: 130, height: 40 },
      })
    })
    const texts = [heading, ...card.map((e) => e.axName as string)]
    for (const e of card) e.neighborText = texts.filter((t) => t !== e.axName).slice(0, 4)
    elements.push(...card)
  }
  return { elements, hash }
}

function identityOf(e: El): ElementIdentity {
  const { handle: _h, visible: _v, enabled: _e, classNames, neighborText, ...rest } = e
  return {
    ...rest,
    tagName: e.tagName ?? 'div',
    boundingBox: e.boundingBox ?? { x: 0, y: 0, width: 0, height: 0 },
    classNames: classNames ? [...classNames] : null,
    neighborText: neighborText ? [...neighborText] : null,
  }
}

const cardOf = (e: El) => Number(/section\[(\d+)\]/.exec(e.xpath ?? '')?.[1] ?? 0)
const shiftBox = (e: El, dx: number, dy: number): El => ({
  ...e,
  boundingBox: e.boundingBox && { ...e.boundingBox, x: e.boundingBox.x + dx, y: e.boundingBox.y + dy },
})
const bumpIndex = (xpath: string | null | undefined, by: number) =>
  xpath?.replace(/\[(\d+)\]$/, (_, n) => `[${Number(n) + by}]`) ?? null

type Mutation = (els: El[], target: number, r: () => number) => El[]

export const MUTATIONS: Record<string, Mutation> = {
  'renamed id/classes': (els, t, r) => {
    const h = hex(r)
    return els.map((e) => ({
      ...e,
      id: e.handle === t && e.id ? (e.id.startsWith('r-') ? `r-${hex(r)}` : `${e.id}-v2`) : e.id,
      classNames: e.classNames?.map((c) => (c.startsWith('css-') ? `css-${h}${c.slice(-1)}` : c)) ?? null,
    }))
  },
  wrapper: (els, t) =>
    els.map((e) =>
      e.handle === t ? { ...shiftBox(e, 4, 2), xpath: e.xpath?.replace(/\/([a-z]+\[\d+\])$/, '/span/$1') } : e,
    ),
  'layout shift': (els, _t, r) => {
    const dx = Math.floor(r() * 60) - 30
    return els.map((e) => ({
      ...shiftBox(e, dx, 120),
      xpath: e.xpath?.replace(/section\[(\d+)\]/, (_, n) => `section[${Number(n) + 1}]`),
    }))
  },
  'reworded label': (els, t) =>
    els.map((e) => {
      if (e.handle !== t) return e
      const to = LABELS.find(([a]) => a === e.axName)?.[1]
      if (!to) return { ...e, axName: `${e.axName} 입력`, placeholder: e.placeholder && `${e.placeholder}…` }
      return { ...e, axName: to, textContent: to }
    }),
  'tag change': (els, t) =>
    els.map((e) =>
      e.handle === t && e.tagName === 'button'
        ? { ...e, tagName: 'a', href: '#', xpath: e.xpath?.replace(/button\[\d+\]$/, 'a[1]') }
        : e,
    ),
  decoy: (els, t) => {
    const target = els.find((e) => e.handle === t) as El
    const card = cardOf(target)
    const decoy: El = {
      ...target,
      handle: -1,
      id: 'temp',
      axName: target.axRole === 'textbox' ? 'Temporary' : '임시 보관',
      textContent: target.axRole === 'textbox' ? null : '임시 보관',
      name: target.name ? `${target.name}-tmp` : null,
      placeholder: null,
    }
    const out: El[] = []
    for (const e of els) {
      if (e.handle === t) out.push(decoy)
      const after =
        cardOf(e) === card && e.tagName === target.tagName && (e.boundingBox?.x ?? 0) >= (target.boundingBox?.x ?? 0)
      out.push(after ? { ...shiftBox(e, 150, 0), xpath: bumpIndex(e.xpath, 1) } : e)
    }
    return out
  },
  'reordered blocks': (els, _t, r) => {
    const cards = [...new Set(els.map(cardOf))]
    const perm = [...cards].sort(() => r() - 0.5)
    const origin = (c: number) => ({ x: 40 + ((c - 1) % 2) * 700, y: 100 + Math.floor((c - 1) / 2) * 260 })
    return els.map((e) => {
      const from = cardOf(e)
      const to = perm[cards.indexOf(from)] as number
      const a = origin(from)
      const b = origin(to)
      return {
        ...shiftBox(e, b.x - a.x, b.y - a.y),
        xpath: e.xpath?.replace(/section\[\d+\]/, `section[${to}]`),
      }
    })
  },
}

/** The target is gone; its later siblings move up (one of them takes its XPath); maybe a decoy takes its place. */
function removal(els: El[], t: number, r: () => number): El[] {
  const target = els.find((e) => e.handle === t) as El
  const card = cardOf(target)
  const withDecoy = r() < 0.5
  const out: El[] = []
  for (const e of els) {
    if (e.handle === t) {
      // the Chromium case: a same-class button with another label takes its place (an identical twin with
      // the same label and place would be the same element to any tool, so the label always differs)
      const label = target.axName === '임시 저장' ? '임시 보관' : '임시 저장'
      if (withDecoy)
        out.push({
          ...target,
          handle: -1,
          id: 'temp',
          axName: target.axRole === 'textbox' ? 'Memo' : label,
          textContent: target.axRole === 'textbox' ? null : label,
          name: target.name ? 'memo' : null,
          placeholder: null,
        })
      continue
    }
    const after =
      !withDecoy &&
      cardOf(e) === card &&
      e.tagName === target.tagName &&
      (e.boundingBox?.x ?? 0) > (target.boundingBox?.x ?? 0)
    out.push(after ? { ...shiftBox(e, -150, 0), xpath: bumpIndex(e.xpath, -1) } : e)
  }
  return out
}

type Verdict = 'right' | 'wrong' | 'miss'
type Replayer = (
  identity: ElementIdentity,
  css: string[],
  source: CandidateSource<number>,
  now: El[],
) => Promise<number | undefined>

const cascade =
  (opts: LocateOptions = {}): Replayer =>
  async (identity, css, source) =>
    (await locate(identity, source, { selectors: { css: css[0], fallbacks: css.slice(1) }, ...opts })).element?.handle

/** Selenium-IDE style: id, then CSS, then XPath; the first element of the first selector that matches. */
const seleniumChain: Replayer = async (identity, css, source) => {
  for (const s of css) {
    const [first] = await source.bySelector(s, 'css')
    if (first) return first.handle
  }
  if (identity.xpath) return (await source.bySelector(identity.xpath, 'xpath'))[0]?.handle
  return undefined
}
/** getByRole(role, { name, exact: true }) in strict mode: exactly one, else nothing. */
const roleOnly: Replayer = async (identity, _css, source) => {
  if (!identity.axRole || !identity.axName) return undefined
  const found = await source.byRole(identity.axRole, identity.axName)
  return found.length === 1 ? found[0]?.handle : undefined
}
/** Whatever is under the recorded centre now. */
const coordinates: Replayer = async (identity, _css, _source, now) => {
  const b = identity.boundingBox
  const x = b.x + b.width / 2
  const y = b.y + b.height / 2
  return now.find(
    (e) =>
      e.boundingBox &&
      x >= e.boundingBox.x &&
      x <= e.boundingBox.x + e.boundingBox.width &&
      y >= e.boundingBox.y &&
      y <= e.boundingBox.y + e.boundingBox.height,
  )?.handle
}

export const REPLAYERS: Record<string, Replayer> = {
  ours: cascade(),
  'ours, no precision rule': cascade({ minLabelScore: 0, minContextScore: 0 }),
  'selenium id/css/xpath': seleniumChain,
  'role+name only': roleOnly,
  coordinates,
}

export interface KindResult {
  kind: string
  cases: number
  counts: Record<string, Record<Verdict, number>>
}

export interface CaseInfo {
  kind: string
  replayer: string
  identity: ElementIdentity
  css: string[]
  now: El[]
  target: El
  got: number | undefined
  verdict: Verdict
}

export async function benchHealing(
  casesPerKind: number,
  replayers = REPLAYERS,
  inspect?: (info: CaseInfo) => void,
): Promise<KindResult[]> {
  const kinds = [...Object.keys(MUTATIONS), 'combination (2–3)', 'removal']
  const results: KindResult[] = []
  for (const [ki, kind] of kinds.entries()) {
    const r = rng(7000 + ki)
    const counts: KindResult['counts'] = Object.fromEntries(
      Object.keys(replayers).map((k) => [k, { right: 0, wrong: 0, miss: 0 }]),
    )
    for (let k = 0; k < casesPerKind; k++) {
      const page = makePage(100 * ki + k)
      const target = page.elements[Math.floor(r() * page.elements.length)] as El
      // as the web recorder does: how many other elements of the recorded page carry an agreeing label
      const recorded = identityOf(target)
      const identity = { ...recorded, sameLabelCount: countSameLabel(recorded, target, page.elements) }
      const css = [
        ...(target.id ? [`#${target.id}`] : []),
        `${target.tagName}${(target.classNames ?? []).map((c) => `.${c}`).join('')}`,
      ]
      let now: El[]
      if (kind === 'removal') now = removal(page.elements, target.handle as number, r)
      else if (kind.startsWith('combination')) {
        const names = Object.keys(MUTATIONS)
          .sort(() => r() - 0.5)
          .slice(0, 2 + Math.floor(r() * 2))
        now = page.elements
        for (const n of names) now = (MUTATIONS[n] as Mutation)(now, target.handle as number, r)
      } else now = (MUTATIONS[kind] as Mutation)(page.elements, target.handle as number, r)
      const source = memoryCandidateSource(now)
      const present = now.some((e) => e.handle === target.handle)
      for (const [name, replay] of Object.entries(replayers)) {
        const got = await replay(identity, css, source, now)
        const c = counts[name] as Record<Verdict, number>
        // on removal the right answer is "not found"
        const verdict: Verdict =
          got === undefined ? (present ? 'miss' : 'right') : present && got === target.handle ? 'right' : 'wrong'
        c[verdict]++
        inspect?.({ kind, replayer: name, identity, css, now, target, got, verdict })
      }
    }
    results.push({ kind, cases: casesPerKind, counts })
  }
  return results
}

export function printHealing(results: KindResult[]): void {
  const names = Object.keys(results[0]?.counts ?? {})
  console.log(
    `\n## Healing accuracy: ${results[0]?.cases ?? 0} synthetic mutated pages per kind (8 cards × 4–5 controls, repeated labels)`,
  )
  console.log('right / wrong / not found (%); on removal "right" = nothing clicked')
  console.log(`${'kind'.padEnd(20)}${names.map((n) => n.padStart(24)).join('')}`)
  for (const { kind, cases, counts } of results) {
    const cells = names.map((n) => {
      const c = counts[n] as Record<Verdict, number>
      const pct = (v: number) => Math.round((100 * v) / cases)
      return `${pct(c.right)} / ${pct(c.wrong)} / ${pct(c.miss)}`.padStart(24)
    })
    console.log(`${kind.padEnd(20)}${cells.join('')}`)
  }
}
