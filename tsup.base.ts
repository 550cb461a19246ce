import type { Options } from 'tsup'

/** Shared tsup settings: ESM + .d.ts per package, Node 20. */
export const base: Options = {
  format: ['esm'],
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: false,
}
