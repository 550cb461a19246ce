/**
 * Test helpers for code built on `@qa/runner`: a replayer and a report writer that do no browser work, case
 * folders in a temp dir, and a real Redis server on a free loopback port (the `redis-server` binary).
 */
export { caseFolder, type FakeReplayerOptions, fakeReplayer, fakeWriter, tempDir, writeCase } from './fakes'
export { startTestRedis, type TestRedis } from './redis-server'
export { type ArtifactStoreContractOptions, describeArtifactStore } from './describe-artifact-store'
export { describeRunStore, type RunStoreContractOptions } from './describe-run-store'
