/** Shared by the DevTools room's tests: the recordings of test/fixtures/devtools, a fixed import time, the case codec. */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseTestCase, serializeTestCase, type TestCase } from '@qa/model'
import { importDevtoolsRecording } from '../import'

export const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../../test/fixtures/devtools/${name}`, import.meta.url)), 'utf8'))
export const NOW = Date.UTC(2026, 10, 20, 8, 0, 0)
export const importFixture = (name: string) => importDevtoolsRecording(fixture(name), { file: name, now: NOW })

/** The case must survive our own file format unchanged (validation + round trip through the codec). */
export function throughFile(tc: TestCase): TestCase {
  return parseTestCase(JSON.parse(JSON.stringify(serializeTestCase(tc)))).testCase
}
