/**
 * The matcher's image primitives, for code that searches images itself (a frozen earlier template search kept as a
 * benchmark's baseline): grey and integral images, box and bilinear resampling, zero-mean templates, and the range
 * check the matcher's options use.
 */
export { assertRange, MatcherError } from '../errors'
export type { Frame } from './frame'
export { resampleBilinear } from './resample'
export {
  boxDownsample,
  type Grey,
  type GreyWithIntegral,
  greyAndIntegral,
  halfGrey,
  type Integral,
  integralOnly,
  integrals,
  lumaAt,
  resize,
  zeroMean,
} from './grey'
