import cliTruncate from 'cli-truncate'
import stringWidth from 'string-width'

/**
 * Terminal text measured in columns, not UTF-16 units: a Hangul syllable (or any East Asian wide character)
 * takes two columns, an emoji never splits in half, ANSI colours take none.
 */
export const columnsOf = (text: string): number => stringWidth(text)

/** `text` cut to at most `columns` columns, ending in "…" when cut. */
export const truncateToColumns = (text: string, columns: number): string => cliTruncate(text, columns)

/** `text` padded with spaces to `columns` columns (a table cell that lines up with Hangul in it). */
export const padEndToColumns = (text: string, columns: number): string =>
  text + ' '.repeat(Math.max(0, columns - stringWidth(text)))
