//! Listens for the step-through keys (stepKeys.ts) while the read-only canvas is shown.
import { useEffect } from 'react'
import { useEditSession } from '../editor/editSession'
import { useBreakpointStore } from '../state/breakpointStore'
import { useRunStore } from '../state/runStore'
import { resumeRun } from '../state/stepActions'
import { useWorkflowStore } from '../state/workflowStore'
import { stepKeyOf } from './stepKeys'

export function useStepKeys(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (useEditSession.getState().active) return
      const { graph, selected } = useWorkflowStore.getState()
      const stepSelected = selected !== undefined && graph?.nodes.some((n) => n.kind === 'step' && n.id === selected) === true
      const key = stepKeyOf(event, { paused: useRunStore.getState().paused !== undefined, stepSelected })
      if (!key) return
      event.preventDefault()
      if (key === 'next') void resumeRun('next')
      else if (selected) useBreakpointStore.getState().toggle(selected)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
}
