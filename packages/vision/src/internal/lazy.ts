/** Runs `load` once, on first call; a failed load is retried on the next call. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () => {
    if (!pending) {
      pending = load().catch((error: unknown) => {
        pending = undefined
        throw error
      })
    }
    return pending
  }
}
