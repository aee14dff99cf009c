import { describe, expect, it } from 'vitest'
import { useEditSession } from '../editor/editSession'
import { useConnectionStore } from './connectionStore'
import { resetStores } from './resetStores'
import { useRunStore } from './runStore'
import { useWorkflowStore } from './workflowStore'

describe('resetStores', () => {
  it('puts the stores back as they were created, actions included', () => {
    const { select } = useWorkflowStore.getState()
    useRunStore.getState().begin('r1')
    useRunStore.getState().lose('gone')
    useWorkflowStore.getState().select('search')
    useConnectionStore.getState().setState('open')
    useEditSession.setState({ active: true, problems: { search: 'error' } })

    resetStores()

    expect(useRunStore.getState()).toEqual(useRunStore.getInitialState())
    expect('error' in useRunStore.getState()).toBe(false)
    expect(useWorkflowStore.getState().selected).toBeUndefined()
    expect(useWorkflowStore.getState().select).toBe(select)
    expect(useConnectionStore.getState()).toMatchObject({ state: 'connecting', everOpened: false })
    expect(useEditSession.getState()).toMatchObject({ active: false, problems: {} })
  })
})

// Two tests in order: the first leaves state behind, the second sees the setup's reset.
describe('the test setup', () => {
  it('lets a test leave a run behind', () => {
    useRunStore.getState().begin('r1')
    expect(useRunStore.getState().runId).toBe('r1')
  })

  it('resets the stores before the next test', () => {
    expect(useRunStore.getState().runId).toBeUndefined()
  })
})
