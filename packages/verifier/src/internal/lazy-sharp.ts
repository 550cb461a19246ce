import { VerifierError } from '../errors'

type SharpFactory = typeof import('sharp').default
let loading: Promise<SharpFactory> | undefined

/** sharp is native: loaded on first use, never at import time. */
export function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(
    (m) => m.default,
    (cause: unknown) => {
      loading = undefined
      throw new VerifierError('VERIFIER_SHARP_MISSING', 'The image library sharp could not be loaded.', {
        hint: 'Reinstall dependencies (`pnpm install`) so that sharp can fetch its prebuilt binary for this platform.',
        cause,
      })
    },
  )
  return loading
}
