import type { CDPSession, Page } from 'playwright-core'
import { waitForDomQuietInPage } from '../injected/page-scripts'

/**
 * Where the DOM-quiet wait (`waitForDomQuietInPage`) runs: an isolated world of its own in the page's top document
 * (`Page.createIsolatedWorld`), never the page's. The wait keeps what it learnt about a document (its live nodes)
 * between calls on that world's globals: a page's scripts can neither read nor change it there,
 * nor the timers and observers the wait uses.
 */

const WORLD_NAME = '__qa_dom_quiet'

interface QuietWorld {
  session: CDPSession
  /** The world's context in the current document, once made. */
  contextId: number | null
}

const quietWorlds = new WeakMap<Page, Promise<QuietWorld>>()

function quietWorldOf(page: Page): Promise<QuietWorld> {
  let world = quietWorlds.get(page)
  if (!world) {
    world = page
      .context()
      .newCDPSession(page)
      .then((session) => ({ session, contextId: null }))
    // a page that could not be reached is tried afresh next time
    world.catch(() => quietWorlds.delete(page))
    quietWorlds.set(page, world)
  }
  return world
}

async function contextIn(world: QuietWorld): Promise<number> {
  if (world.contextId !== null) return world.contextId
  const { frameTree } = await world.session.send('Page.getFrameTree')
  const { executionContextId } = await world.session.send('Page.createIsolatedWorld', {
    frameId: frameTree.frame.id,
    worldName: WORLD_NAME,
  })
  world.contextId = executionContextId
  return executionContextId
}

/**
 * Resolves when the page's top document has been quiet (`waitForDomQuietInPage`), with its value; rejects when the
 * document went away meanwhile (a navigation) or the page is closed.
 */
export async function waitForDomQuiet(
  page: Page,
  args: { quietMs: number; timeoutMs: number; liveAfterMs?: number },
): Promise<boolean> {
  const world = await quietWorldOf(page)
  const expression = `(${waitForDomQuietInPage.toString()})(${JSON.stringify(args)})`
  for (let attempt = 0; ; attempt++) {
    const contextId = await contextIn(world).catch((error: unknown) => {
      // the session is gone (the page closed, or a browser we attached to detached it): a new one next time
      quietWorlds.delete(page)
      throw error
    })
    try {
      const { result, exceptionDetails } = await world.session.send('Runtime.evaluate', {
        expression,
        contextId,
        awaitPromise: true,
        returnByValue: true,
      })
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text)
      return result.value === true
    } catch (error) {
      if (world.contextId === contextId) world.contextId = null
      // the world belonged to a document the page has left: once more, in one for the document there is now
      if (attempt > 0 || !/Cannot find context/i.test(String(error))) throw error
    }
  }
}
