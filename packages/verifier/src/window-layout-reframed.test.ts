// Iagno (GTK 3) laid out again at 720×680 (the games bench's size variant): its two mode buttons, side by side with
// their icon left of the label at 550×556, are reflowed with the icon above the label, and the frame of the selected
// mode (210×79 recorded) is 181×195 now. The step "Reverse Reversi" moves that frame from Classic to Reverse. Real
// screens: the recording's before and after, and three replays at 720×680 from the same screen (the right item, the
// selected item again, another item that opens a popover), each cut to the screen's top-left 800×740; and the case's
// third step (Hard, in the Difficulty popover) recorded and replayed at 720×680.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { verifyStep } from './verify-step'

const shot = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../test/fixtures/iagno-720x680/${name}.png`, import.meta.url)))

/** The step as the desktop replay gives it to the verifier: the window, the recorded label's box and where it is now. */
const step = (after: string) => ({
  actionIndex: 0,
  description: 'Click (363, 298)',
  expected: shot('recorded-after'),
  recordedBefore: shot('recorded-before'),
  actual: shot(after),
  actualBefore: shot('before'),
  displacement: { x: 150, y: -21 },
  targetBox: { x: 312, y: 294, width: 103, height: 9 },
  actualTargetBox: { x: 462, y: 273, width: 103, height: 9 },
  window: { recorded: { x: 60, y: 50, width: 550, height: 556 }, now: { x: 60, y: 50, width: 720, height: 680 } },
})

describe('a framed item reflowed in a window of another size', () => {
  it('the frame that went pairs with the same frame in its new proportions: the right step passes', async () => {
    // before: "0 of the step's 1 recorded items paired with the replay's 2" (210×79 is no 181×195), a false failure
    const r = await verifyStep(step('reverse-after'), {})
    expect(r.finalResult).toBe('pass')
    expect(r.details?.region).toMatchObject({ relaid_out: { matched_items: 1, score: 1 } })
  })

  it('the selected item clicked again changes nothing: it fails', async () => {
    const r = await verifyStep(step('classic-after'), {})
    expect(r.finalResult).toBe('fail')
  })

  it('another item (a popover opened, its frame and its rows) does not pair: it fails', async () => {
    const r = await verifyStep(step('colour-after'), {})
    expect(r.finalResult).toBe('fail')
  })

  it("a popover's frame that went in both is the step's change, not the clicked item's look: Hard in the Difficulty popover passes", async () => {
    // the label "Hard" lies, on the recorded screen after the step, over the selected mode's frame: that frame is no
    // look of the target, as the replay's popover frame pairs with the recorded one
    const r = await verifyStep(
      {
        actionIndex: 2,
        description: 'Click (278, 336)',
        expected: shot('hard-recorded-after'),
        recordedBefore: shot('hard-recorded-before'),
        actual: shot('hard-after'),
        actualBefore: shot('hard-before'),
        displacement: { x: 178, y: 253 },
        targetBox: { x: 263, y: 330, width: 29, height: 11 },
        window: {
          recorded: { x: 60, y: 50, width: 550, height: 556 },
          now: { x: 60, y: 50, width: 720, height: 680 },
        },
      },
      {},
    )
    expect(r.finalResult).toBe('pass')
    expect(r.details?.region).toMatchObject({ relaid_out: { recorded_items: 9, matched_items: 9 } })
  })
})
