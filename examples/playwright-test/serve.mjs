// The servers this example tests against (started by playwright.config.ts `webServer`): the sample app's
// redesigned v2 and the wild corpus (pages nobody here wrote, mutated after they render).
import { startSampleApp } from '@qa/sample-app'
import { startCorpusServer } from '@qa/wild-corpus'

const variant = process.env.SAMPLE_VARIANT ?? 'v2'
const app = await startSampleApp({
  ...(variant === 'removal' ? { mutations: ['removal'] } : { version: 'v2' }),
  port: Number(process.env.SAMPLE_PORT ?? 4174),
})
const corpus = await startCorpusServer({ port: Number(process.env.CORPUS_PORT ?? 4175) })
console.log(`sample app ${variant} at ${app.url}, wild corpus at ${corpus.url}`)
const stop = async () => {
  await Promise.allSettled([app.close(), corpus.close()])
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
