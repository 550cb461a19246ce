import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ReplayReport } from '@qa/model'
import { fakeReverifier } from '../fake-reverifier'
import { createReplayVerifier } from '../replay-verifier'
import { cloneFrame, paintRect, syntheticFrame, toPng } from './images'

/** A real 3-step run (pass, warning with no screenshot, fail with a diff) in a fresh folder. */
export async function threeStepRun(): Promise<{ dir: string; report: ReplayReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'qa-verifier-run-'))
  const home = syntheticFrame(320, 200, 31)
  const settings = syntheticFrame(320, 200, 32)
  writeFileSync(join(dir, 'step0.png'), await toPng(home))
  writeFileSync(join(dir, 'step2.png'), await toPng(settings))
  const broken = cloneFrame(settings)
  paintRect(broken, 0, 0, 320, 120, [200, 30, 30])
  const v = createReplayVerifier({
    testCaseName: '로그인 흐름',
    sessionId: 'run-1',
    baseDir: dir,
    artifactDir: join(dir, 'artifacts'),
    reverifier: fakeReverifier({ match: false, reason: '설정 화면 대신 오류 대화상자가 보입니다' }),
  })
  await v.verifyAction(
    0,
    { timestamp: 0, actionType: 'click', x: 1, y: 1, description: '홈 버튼 클릭', screenshotPath: 'step0.png' },
    cloneFrame(home),
  )
  await v.verifyAction(1, { timestamp: 1, actionType: 'type', x: 1, y: 1, text: 'abc', description: '이름 입력' }, home)
  await v.verifyAction(
    2,
    { timestamp: 2, actionType: 'click', x: 5, y: 5, description: '설정 열기', screenshotPath: 'step2.png' },
    broken,
  )
  v.recordReplayResult({
    actionId: 'a0',
    actionIndex: 0,
    success: true,
    method: 'role',
    originalCoords: { x: 1, y: 1 },
    matchConfidence: 1,
    screenTransitionVerified: true,
    errorMessage: '',
  })
  v.recordReplayResult({
    actionId: 'a1',
    actionIndex: 1,
    success: true,
    method: 'coordinate',
    originalCoords: { x: 1, y: 1 },
    matchConfidence: 0.5,
    screenTransitionVerified: false,
    errorMessage: '',
  })
  v.recordReplayResult({
    actionId: 'a2',
    actionIndex: 2,
    success: true,
    method: 'similarity',
    originalCoords: { x: 5, y: 5 },
    matchConfidence: 0.8,
    screenTransitionVerified: false,
    errorMessage: '',
  })
  return { dir, report: v.buildReport() }
}
