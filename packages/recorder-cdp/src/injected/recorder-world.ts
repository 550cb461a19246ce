import { installInputReporterInPage } from './page-scripts'
import { installRecorderToolbarInPage } from './recorder-toolbar'

/** The names the recorder's world calls its reports by (each exists in that world only). */
export interface RecorderWorldChannels {
  /** The input reporter's binding. */
  input: string
  /** The toolbar's binding and element tag; null: no toolbar. */
  toolbar: { binding: string; tag: string } | null
}

/**
 * What the recorder runs in its world of every frame: the input reporter, and the toolbar when there is one. Both
 * report through one binding of that world (`bindingName`, a JSON text: `{ channel, message }`). Source text.
 */
export function recorderWorldSource(bindingName: string, channels: RecorderWorldChannels): string {
  const relayTo = (name: string, channel: string) => `globalThis[${JSON.stringify(name)}] = relay('${channel}');`
  const toolbar = channels.toolbar
    ? `${relayTo(channels.toolbar.binding, 'toolbar')}
  (${installRecorderToolbarInPage.toString()})(${JSON.stringify({ binding: channels.toolbar.binding, tag: channels.toolbar.tag })});`
    : ''
  return `(() => {
  const relay = (channel) => (message) => {
    const call = globalThis[${JSON.stringify(bindingName)}]
    if (typeof call === 'function') call(JSON.stringify({ channel, message }))
  }
  ${relayTo(channels.input, 'input')}
  (${installInputReporterInPage.toString()})(${JSON.stringify(channels.input)});
  ${toolbar}
})()`
}
