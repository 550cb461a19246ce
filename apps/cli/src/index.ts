export { createCli, main, type MainContext } from './main'
export { QaCommand } from './base-command'
export { EXIT_PASS, EXIT_TEST_FAILED, EXIT_USAGE } from './exit-codes'
