/**
 * Fixtures for tests and benchmarks of code built on the matcher: seeded synthetic screens (a UI-like frame,
 * noise, crops and scaled pastes), a keypad drawn by sharp with the box of every key, and the matcher's earlier
 * candidate scorer, kept frozen as the reference a new scorer is compared with.
 */
export { cropFrame, noiseFrame, pasteScaled, rng, uiFrame } from '../internal/synthetic'
export { crop, decodePng, type KeyBox, type KeypadOptions, keypadPng } from '../__tests__/keypad-png'
export { rankCandidates as referenceRankCandidates } from '../__tests__/score-candidate-reference'
