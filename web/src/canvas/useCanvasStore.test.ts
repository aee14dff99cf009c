import { describe, expect, it, vi } from 'vitest'
import { useWorkflowStore } from '../state/workflowStore'
import { focusNode, useCanvasStore } from './useCanvasStore'

describe('useCanvasStore', () => {
  it('focus selects the node and centres the attached canvas on it', () => {
    const centre = vi.fn()
    const detach = useCanvasStore.getState().attach(centre)
    focusNode('search')
    expect(useWorkflowStore.getState().selected).toBe('search')
    expect(centre).toHaveBeenCalledWith('search')
    detach()
    expect(useCanvasStore.getState().centre).toBeUndefined()
  })

  it('still selects when no canvas is attached', () => {
    useCanvasStore.getState().focus('check')
    expect(useWorkflowStore.getState().selected).toBe('check')
  })
})
