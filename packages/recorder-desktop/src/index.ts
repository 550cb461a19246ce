// @qa/recorder-desktop: record and replay desktop and game UIs from pixels. Everything exported is named here.
export { DesktopError, type DesktopErrorCode } from './errors'
export { bgraToRgba, boxAround, clipBox, cropFrame, decodeImage, encodePng, framesEqual, type RgbaFrame } from './frame'
export { createFrameRing, type FrameRing, type FrameRingOptions, ringCapacityFor, type TimedFrame } from './frame-ring'
export { type InputEvent, MODIFIER_KEYS, nowMs } from './input-event'
export {
  type ActionCoalescer,
  type CoalesceOp,
  type CoalesceOptions,
  createActionCoalescer,
  type RawAction,
} from './coalesce-actions'
export {
  acceptsInput,
  assertRecorderTransition,
  nextRecorderState,
  type RecorderEvent,
  type RecorderState,
} from './recorder-state'
export type { InputSource, KeyboardInput, PointerInput, ScreenCapture } from './ports'
export {
  type InputCall,
  type MemoryScreen,
  memoryScreen,
  recordingInput,
  type ScriptedInput,
  scriptedInput,
  solidFrame,
} from './memory-screen'
export { assertDisplay, assertRecordExtension, hasRecordExtension, parseDisplay } from './display'
export { type BackgroundQueue, createBackgroundQueue } from './background-queue'
export { analyzeClick, type ElementAnalyzer, pickClickLabel, toSemanticInfo } from './semantic-info'
export {
  createDesktopRecorder,
  type DesktopRecorder,
  type DesktopRecorderOptions,
  type RecorderProgress,
} from './desktop-recorder'
export {
  type DesktopHeal,
  type DesktopReplayOptions,
  type DesktopReplayOutcome,
  type DesktopStepEvent,
  replayDesktopCase,
  screenSizeWarning,
  type SettleOptions,
  waitForChangedScreen,
  waitForStableScreen,
} from './desktop-replayer'
export { type EnrichOptions, type EnrichOutcome, enrichDesktopCase } from './enrich-desktop-case'
export { type DesktopVision, desktopVision } from './desktop-vision'
export { keyChar, keyName, uiohookInput } from './uiohook-input'
export {
  closeNut,
  type NutWorker,
  nutInput,
  nutKeyName,
  nutScreen,
  nutWorker,
  setClipboard,
  type TimedCapture,
} from './nut-desktop'
export { keyStrokeOf, planTyping, type TypeStep } from './type-plan'
export { type DesktopSession, openDesktop } from './open-desktop'
export { openWindowLocator, type WindowLocator } from './x11-windows'
export {
  type DesktopReplaySettings,
  desktopReplayOptionsOf,
  desktopReplaySettingsOf,
} from './desktop-replay-settings'
export { healedDesktopCase, healsFolderOf, saveDesktopHeals } from './desktop-heals'
export { type RunDesktopReplayOptions, type RunDesktopReplayResult, runDesktopReplay } from './run-desktop-replay'
export { type RunDesktopRecordOptions, runDesktopRecord } from './run-desktop-record'
export { type AppWindow, openAppWindow, startXvfb, type VirtualDisplay } from './xvfb'
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
  gamePageHtml,
  gameScreenAnalysis,
  SAMPLE_GAME_FLOW,
  type SampleGameServer,
  startSampleGame,
} from './sample-game/index'
