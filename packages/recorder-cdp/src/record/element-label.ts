/** What a step description calls an element: its home is `@qa/model`, next to the other step descriptions. */
export { elementLabel } from '@qa/model'
