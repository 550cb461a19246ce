import { qaVitestConfig } from '../../vitest.shared'

export default qaVitestConfig()
