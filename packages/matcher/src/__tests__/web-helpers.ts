import type { CandidateElement } from '../score-candidate'

/** Each strategy's outcome of a locate result, by strategy. */
export const outcomes = (r: { attempts: { strategy: string; outcome: string }[] }) =>
  Object.fromEntries(r.attempts.map((a) => [a.strategy, a.outcome]))

/** A profile page's "REPLY" link in row `row`: its own row's text comes first, the other rows follow as further neighbours. */
export const replyInRows =
  (rows: string[]) =>
  (handle: string, row: number, who: string): CandidateElement<string> => ({
    handle,
    axRole: 'link',
    axName: 'REPLY',
    tagName: 'a',
    classNames: ['btn', 'btn-link'],
    xpath: `/html/body/ul/li[${row}]/a`,
    boundingBox: { x: 600, y: 100 + 60 * row, width: 60, height: 30 },
    neighborText: [who, ...rows.filter((r) => r !== who).map((r) => `${r} REPLY`)],
  })
