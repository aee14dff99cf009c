import { describe, expect, it } from 'vitest'
import { onScreen, stepToFollow, type Shown } from './follow'
import type { Box } from './geometry'

/** An 800×600 canvas at zoom 1, not panned: flow coordinates are screen coordinates. */
const shown: Shown = { x: 0, y: 0, zoom: 1, width: 800, height: 600 }
const boxes: Record<string, Box> = {
  near: { x: 100, y: 100, width: 188, height: 82 },
  far: { x: 1500, y: 100, width: 188, height: 82 },
  farther: { x: 2500, y: 100, width: 188, height: 82 },
  edge: { x: 700, y: 100, width: 188, height: 82 },
}
const boxOf = (id: string) => boxes[id]

describe('stepToFollow', () => {
  it('pans to a step that starts off-screen', () => {
    expect(stepToFollow(['far'], ['far'], boxOf, shown)).toBe('far')
    // Half on screen is off-screen too.
    expect(stepToFollow(['edge'], ['edge'], boxOf, shown)).toBe('edge')
  })

  it('stays while a running step is on screen, or when nothing started', () => {
    expect(stepToFollow(['near', 'far'], ['far'], boxOf, shown)).toBeUndefined()
    expect(stepToFollow(['far'], [], boxOf, shown)).toBeUndefined()
  })

  it('picks the step that started last, among those drawn', () => {
    expect(stepToFollow(['far', 'farther'], ['far', 'farther'], boxOf, shown)).toBe('farther')
    expect(stepToFollow(['far', 'ghost'], ['far', 'ghost'], boxOf, shown)).toBe('far')
  })

  it('takes the pan and zoom into account', () => {
    const panned = { ...shown, x: -1400, zoom: 1 }
    expect(onScreen(boxes.far, panned)).toBe(true)
    expect(onScreen(boxes.far, { ...shown, zoom: 0.4 })).toBe(true)
    expect(stepToFollow(['far'], ['far'], boxOf, panned)).toBeUndefined()
  })
})
