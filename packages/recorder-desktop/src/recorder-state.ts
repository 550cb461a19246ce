import { DesktopError } from './errors'

/** idle → recording → stopping (hotkey or stop(): pending screenshots and analyses finish) → stopped. */
export type RecorderState = 'idle' | 'recording' | 'stopping' | 'stopped' | 'failed'
export type RecorderEvent = 'start' | 'stop' | 'drained' | 'fail'

const TRANSITIONS: Record<RecorderState, Partial<Record<RecorderEvent, RecorderState>>> = {
  idle: { start: 'recording', fail: 'failed' },
  recording: { stop: 'stopping', fail: 'failed' },
  stopping: { stop: 'stopping', drained: 'stopped', fail: 'failed' },
  stopped: { stop: 'stopped' },
  failed: { stop: 'failed' },
}

/** The next state, or null when the event is not allowed in this state. Pure. */
export function nextRecorderState(state: RecorderState, event: RecorderEvent): RecorderState | null {
  return TRANSITIONS[state][event] ?? null
}

/** Like `nextRecorderState`, throwing DESKTOP_BAD_STATE for an event the state does not allow. */
export function assertRecorderTransition(state: RecorderState, event: RecorderEvent): RecorderState {
  const next = nextRecorderState(state, event)
  if (next === null)
    throw new DesktopError('DESKTOP_BAD_STATE', `The recorder cannot "${event}" while ${state}.`, {
      hint: event === 'start' ? 'Create a new recorder for each recording.' : 'Call start() first.',
    })
  return next
}

/** Whether input events are accepted in this state. */
export const acceptsInput = (state: RecorderState): boolean => state === 'recording'
