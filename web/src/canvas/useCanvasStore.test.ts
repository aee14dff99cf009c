import { describe, expect, it, vi } from 'vitest'
import { createApp } from '../app/createApp'

describe('the canvas store', () => {
  it('focus selects the node and centres the attached canvas on it', () => {
    const { stores } = createApp()
    const centre = vi.fn()
    const detach = stores.canvas.getState().attach(centre)
    stores.canvas.getState().focus('search')
    expect(stores.workflow.getState().selected).toBe('search')
    expect(centre).toHaveBeenCalledWith('search')
    detach()
    expect(stores.canvas.getState().centre).toBeUndefined()
  })

  it('still selects when no canvas is attached', () => {
    const { stores } = createApp()
    stores.canvas.getState().focus('check')
    expect(stores.workflow.getState().selected).toBe('check')
  })
})
