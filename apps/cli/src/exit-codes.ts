/** The `qa` exit codes (SPEC §8): a public contract. */
export const EXIT_PASS = 0
export const EXIT_TEST_FAILED = 1
export const EXIT_USAGE = 2
