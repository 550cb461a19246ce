/** The in-memory model of the test-case format and of replay results and reports, one file per concern. */
export * from './case-types'
export * from './replay-results'
