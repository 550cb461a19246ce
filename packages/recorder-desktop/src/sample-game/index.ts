export { startSampleGame, type SampleGameServer } from './game-server'
export {
  buttonCentre,
  GAME_BACKGROUND,
  GAME_HEIGHT,
  GAME_LAYOUTS,
  GAME_WIDTH,
  type GameButton,
  type GameFlowStep,
  type GameScene,
  type GameVersion,
  gameButtons,
  gameScreenAnalysis,
  SAMPLE_GAME_FLOW,
} from './layout'
export { gamePageHtml } from './page'
