/** The `qa` exit codes: a public contract. */
export const EXIT_PASS = 0
export const EXIT_TEST_FAILED = 1
export const EXIT_USAGE = 2
/** Stopped by Ctrl-C before the work was done (what a shell reports for SIGINT: 128 + 2); what was done is kept. */
export const EXIT_INTERRUPTED = 130
