import { truncateToColumns } from './display-width'

/**
 * Progress output of long commands: on a TTY a live status line (spinner + what is running) under the
 * permanent lines; without a TTY plain lines only; with --json nothing at all. Colours respect NO_COLOR.
 */
export interface Progress {
  /** A permanent line (a finished step). */
  line(text: string): void
  /** The transient status line (TTY only). */
  status(text: string): void
  /** Colours a verdict word when colours are on. */
  verdict(word: string): string
  done(): void
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

export function createProgress(
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  opts: { silent?: boolean } = {},
): Progress {
  if (opts.silent) return { line() {}, status() {}, verdict: (w) => w, done() {} }
  const tty = stream.isTTY === true
  const colour = tty && !process.env.NO_COLOR && process.env.TERM !== 'dumb'
  let current = ''
  let frame = 0
  let timer: ReturnType<typeof setInterval> | undefined
  const width = () => Math.max(20, (stream.columns ?? 100) - 1)
  const draw = () => {
    if (!tty || !current) return
    // by display width, not UTF-16 length: a Hangul syllable takes two terminal columns
    const text = truncateToColumns(`${FRAMES[frame % FRAMES.length]} ${current}`, width())
    stream.write(`\r\x1b[2K${colour ? `\x1b[2m${text}\x1b[0m` : text}`)
  }
  const clear = () => {
    if (tty && current) stream.write('\r\x1b[2K')
  }
  return {
    line(text) {
      clear()
      stream.write(`${text}\n`)
      draw()
    },
    status(text) {
      if (!tty) return
      current = text
      timer ??= setInterval(() => {
        frame++
        draw()
      }, 80)
      timer.unref?.()
      draw()
    },
    verdict(word) {
      if (!colour) return word
      const w = word.trim().toLowerCase()
      const code = w === 'pass' ? 32 : w === 'fail' ? 31 : w === 'warning' ? 33 : 0
      return code ? `\x1b[${code}m${word}\x1b[0m` : word
    },
    done() {
      clear()
      current = ''
      if (timer) clearInterval(timer)
      timer = undefined
    },
  }
}
