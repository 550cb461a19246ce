/** One product row of the sample shop list. */
export interface SampleItem {
  readonly id: number
  readonly name: string
  readonly category: string
  readonly priceWon: number
  readonly description: string
}

/** The 20 items of /list: Korean and English names, fixed order and prices (deterministic rendering). */
export const sampleItems: readonly SampleItem[] = [
  { id: 1, name: '전설의 검', category: '무기', priceWon: 12000, description: '오래된 왕국에서 전해 내려오는 검.' },
  { id: 2, name: 'Dragon Shield', category: '방어구', priceWon: 8500, description: 'Forged from dragon scales.' },
  { id: 3, name: '치유 물약', category: '소모품', priceWon: 300, description: '체력을 50 회복합니다.' },
  { id: 4, name: 'Mana Potion', category: '소모품', priceWon: 350, description: 'Restores 40 mana.' },
  { id: 5, name: '불꽃 지팡이', category: '무기', priceWon: 9800, description: '불꽃 마법의 위력을 높여 줍니다.' },
  { id: 6, name: 'Iron Helmet', category: '방어구', priceWon: 2400, description: 'A sturdy iron helmet.' },
  { id: 7, name: '가죽 장화', category: '방어구', priceWon: 1200, description: '이동 속도가 조금 빨라집니다.' },
  { id: 8, name: 'Silver Ring', category: '장신구', priceWon: 5600, description: 'Shines faintly in the dark.' },
  { id: 9, name: '얼음 활', category: '무기', priceWon: 7300, description: '맞은 적을 느리게 만듭니다.' },
  { id: 10, name: 'Shadow Cloak', category: '방어구', priceWon: 6400, description: 'Hides the wearer in shadows.' },
  { id: 11, name: '황금 열쇠', category: '기타', priceWon: 15000, description: '비밀의 방을 여는 열쇠.' },
  { id: 12, name: 'Magic Scroll', category: '소모품', priceWon: 900, description: 'Casts a random spell.' },
  { id: 13, name: '수호의 부적', category: '장신구', priceWon: 4100, description: '받는 피해를 줄여 줍니다.' },
  { id: 14, name: 'Wooden Bow', category: '무기', priceWon: 1800, description: 'A simple bow for beginners.' },
  { id: 15, name: '번개 망치', category: '무기', priceWon: 11200, description: '번개의 힘이 깃든 망치.' },
  { id: 16, name: 'Elixir of Life', category: '소모품', priceWon: 20000, description: 'Fully restores health.' },
  { id: 17, name: '초보자 갑옷', category: '방어구', priceWon: 2000, description: '처음 모험을 떠나는 이에게.' },
  { id: 18, name: 'Phoenix Feather', category: '기타', priceWon: 18000, description: 'Revives a fallen ally.' },
  { id: 19, name: '마법사의 모자', category: '장신구', priceWon: 3300, description: '마나 회복 속도가 빨라집니다.' },
  { id: 20, name: "Traveler's Map", category: '기타', priceWon: 500, description: 'Shows nearby towns.' },
]

/** `12000` → `12,000원` (fixed grouping, no locale lookup). */
export function formatPriceWon(priceWon: number): string {
  return `${String(Math.trunc(priceWon)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}원`
}
