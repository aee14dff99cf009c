import { describe, expect, it } from 'vitest'
import { miniMapSize } from './miniMapSize'

describe('miniMapSize', () => {
  it('hides the minimap on a narrow or short canvas', () => {
    expect(miniMapSize(364, 656)).toBe('hidden')
    expect(miniMapSize(699, 800)).toBe('hidden')
    expect(miniMapSize(1200, 449)).toBe('hidden')
  })

  it('draws it smaller on a medium canvas and full size on a large one', () => {
    expect(miniMapSize(1000, 600)).toBe('small')
    expect(miniMapSize(1600, 900)).toBe('full')
  })
})
