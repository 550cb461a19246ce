/** The sample game's screens: a canvas app with no DOM semantics, in two builds (v2 moves, resizes, recolours). */
export type GameVersion = 1 | 2
export type GameScene = 'menu' | 'settings' | 'level'

export interface GameButton {
  id: 'start' | 'settings' | 'ranking' | 'sound' | 'close' | 'back'
  label: string
  x: number
  y: number
  width: number
  height: number
  color: string
  /** Where the click leads. */
  to?: GameScene
}

export const GAME_WIDTH = 1280
export const GAME_HEIGHT = 720
export const GAME_BACKGROUND = '#1e2a44'

const v1: Record<GameScene, GameButton[]> = {
  menu: [
    { id: 'start', label: '게임 시작', x: 540, y: 300, width: 200, height: 60, color: '#2d6cdf', to: 'level' },
    { id: 'settings', label: 'Settings', x: 540, y: 390, width: 200, height: 60, color: '#2d6cdf', to: 'settings' },
    { id: 'ranking', label: '랭킹 Ranking', x: 540, y: 480, width: 200, height: 60, color: '#2d6cdf' },
  ],
  settings: [
    { id: 'sound', label: '소리 Sound', x: 470, y: 300, width: 200, height: 56, color: '#6b4fd8' },
    { id: 'close', label: '닫기', x: 560, y: 420, width: 160, height: 56, color: '#d9534f', to: 'menu' },
  ],
  level: [{ id: 'back', label: 'Back 뒤로', x: 60, y: 600, width: 180, height: 56, color: '#2d6cdf', to: 'menu' }],
}

const v2: Record<GameScene, GameButton[]> = {
  menu: [
    { id: 'start', label: '게임 시작', x: 860, y: 180, width: 250, height: 75, color: '#2f9e55', to: 'level' },
    { id: 'settings', label: 'Settings', x: 860, y: 300, width: 250, height: 75, color: '#2f9e55', to: 'settings' },
    { id: 'ranking', label: '랭킹 Ranking', x: 860, y: 420, width: 250, height: 75, color: '#2f9e55' },
  ],
  settings: [
    { id: 'sound', label: '소리 Sound', x: 330, y: 250, width: 240, height: 68, color: '#b5651d' },
    { id: 'close', label: '닫기', x: 700, y: 450, width: 190, height: 66, color: '#c0392b', to: 'menu' },
  ],
  level: [{ id: 'back', label: 'Back 뒤로', x: 1000, y: 60, width: 216, height: 68, color: '#8e44ad', to: 'menu' }],
}

export const GAME_LAYOUTS: Record<GameVersion, Record<GameScene, GameButton[]>> = { 1: v1, 2: v2 }

/** Buttons visible on a scene (the settings popup sits over the menu, whose buttons are then covered). */
export function gameButtons(version: GameVersion, scene: GameScene): GameButton[] {
  return GAME_LAYOUTS[version][scene]
}

export const buttonCentre = (b: GameButton) => ({ x: b.x + Math.round(b.width / 2), y: b.y + Math.round(b.height / 2) })

/** What a perfect vision model would answer for a screen of the game (used by the Bedrock stub in tests). */
export function gameScreenAnalysis(version: GameVersion, scene: GameScene) {
  return {
    screen_state: scene === 'menu' ? 'main_menu' : scene,
    elements: gameButtons(version, scene).map((b) => ({
      type: 'button',
      text: b.label,
      description: `${b.label} button`,
      bounding_box: { x: b.x, y: b.y, width: b.width, height: b.height },
      confidence: 0.95,
    })),
  }
}

/** One click of the sample game's demo flow: the button `id` of `scene`, the scene it leads to, text typed after it. */
export interface GameFlowStep {
  scene: GameScene
  id: GameButton['id']
  next: GameScene
  type?: string
}

/** The demo's flow: start → type a name → back → settings → sound (its popup) → close. */
export const SAMPLE_GAME_FLOW: readonly GameFlowStep[] = [
  { scene: 'menu', id: 'start', next: 'level', type: 'hero' },
  { scene: 'level', id: 'back', next: 'menu' },
  { scene: 'menu', id: 'settings', next: 'settings' },
  { scene: 'settings', id: 'sound', next: 'settings' },
  { scene: 'settings', id: 'close', next: 'menu' },
]
