import { describe, expect, it } from 'vitest'
import { identityOf } from '../__tests__/login-page'
import { optionAtGroupPosition } from './group-position'
import { locate } from './locate'
import { memoryCandidateSource } from '../memory-candidate-source'
import type { CandidateElement } from '../score-candidate'

/**
 * gentelella's form.html "Visibility": a segmented radio group (Private, Team, Public), every input named `vis`;
 * the person clicked "Team". Each option is described as the page describes it: its place in the group and size.
 */
const option = (label: string, index: number, size: number, xpathIndex = index + 1): CandidateElement<string> => ({
  handle: label,
  axRole: 'radio',
  axName: label,
  tagName: 'input',
  type: 'radio',
  name: 'vis',
  xpath: `/html/body/main/form/div[5]/div[1]/label[${xpathIndex}]/input`,
  boundingBox: { x: 300 + 70 * index, y: 644, width: 13, height: 13 },
  neighborText: ['Private', 'Team', 'Public', 'Visibility'].filter((t) => t !== label),
  groupPosition: { index, size },
})
const team = option('Team', 1, 3)
const recorded = { ...identityOf(team), neighborText: ['Team', 'Private', 'Public', 'Visibility'] }
const selectors = { xpath: team.xpath ?? null }

describe('a radio found again by its place in its group', () => {
  it('an option reworded in place ("Team" → "People") is the recorded option: same group, same place, same size', async () => {
    const page = [option('Private', 0, 3), option('People', 1, 3), option('Public', 2, 3)]
    const r = await locate(recorded, memoryCandidateSource(page), { selectors })
    expect(r.status).toBe('found')
    expect(r.element?.handle).toBe('People')
    expect(r.strategy).toBe('name')
    expect(r.attempts.find((a) => a.strategy === 'name')?.detail).toContain('option 2 of 3 of the "vis" group')
  })

  it('the option removed: the group is smaller and the option sliding into its place is not taken', async () => {
    // "Public" now stands where "Team" stood (the recorded XPath names it too)
    const page = [option('Private', 0, 2), option('Public', 1, 2, 2)]
    const r = await locate(recorded, memoryCandidateSource(page), { selectors })
    expect(r.status).toBe('not_found')
    expect(r.element).toBeUndefined()
    expect(r.attempts.find((a) => a.strategy === 'name')?.detail).toContain('has 2 options now, 3 when recorded')
  })

  it('the option removed and another added at the end: the same size, but a recorded neighbour is in its place', async () => {
    const page = [option('Private', 0, 3), option('Public', 1, 3), option('Everyone', 2, 3)]
    const r = await locate(recorded, memoryCandidateSource(page), { selectors })
    expect(r.status).toBe('not_found')
    expect(r.attempts.find((a) => a.strategy === 'name')?.detail).toContain('labelled as a neighbour')
  })

  it('options reordered: another option carries the recorded label, so the place proves nothing', () => {
    const page = [option('Team', 0, 3), option('Members', 1, 3), option('Public', 2, 3)]
    const answer = optionAtGroupPosition(recorded, page)
    expect(answer.element).toBeNull()
    expect(answer.detail).toContain('another option of the "vis" group carries the recorded label')
  })

  it('an option with a value: the one at the place must submit the recorded value (a reword keeps it)', () => {
    const valued = (label: string, index: number, value: string) => ({
      ...option(label, index, 3),
      groupPosition: { index, size: 3, value },
    })
    const withValue = { ...recorded, groupPosition: { index: 1, size: 3, value: 'team' } }
    const reworded = [valued('Private', 0, 'private'), valued('People', 1, 'team'), valued('Public', 2, 'public')]
    expect(optionAtGroupPosition(withValue, reworded).element?.handle).toBe('People')
    const replaced = [valued('Private', 0, 'private'), valued('Archive', 1, 'archive'), valued('Public', 2, 'public')]
    const answer = optionAtGroupPosition(withValue, replaced)
    expect(answer.element).toBeNull()
    expect(answer.detail).toContain('submits "archive" now, "team" when recorded')
  })

  it('two forms with the group: two inputs stand at the place, none is taken', () => {
    const page = [option('People', 1, 3), { ...option('People', 1, 3), handle: 'second form' }]
    expect(optionAtGroupPosition(recorded, page).element).toBeNull()
  })

  it('a recording without the place (older cases) leaves the group name out, as before', async () => {
    const { groupPosition: _dropped, ...older } = recorded
    const page = [option('Private', 0, 3), option('People', 1, 3), option('Public', 2, 3)]
    const r = await locate(older, memoryCandidateSource(page), { selectors })
    expect(r.attempts.find((a) => a.strategy === 'name')?.outcome).toBe('skipped')
    expect(r.element?.handle).not.toBe('Private')
    expect(r.element?.handle).not.toBe('Public')
  })
})
