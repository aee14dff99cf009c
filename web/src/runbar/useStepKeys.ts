//! Listens for the step-through keys (stepKeys.ts) while the read-only canvas is shown.
import { useEffect } from 'react'
import { useApp } from '../app/AppContext'
import { stepKeyOf } from './stepKeys'

export function useStepKeys(): void {
  const { stores, stepping } = useApp()
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (stores.editSession.getState().active) return
      const { graph, selected } = stores.workflow.getState()
      const stepSelected = selected !== undefined && graph?.nodes.some((n) => n.kind === 'step' && n.id === selected) === true
      const key = stepKeyOf(event, { paused: stores.run.getState().paused !== undefined, stepSelected })
      if (!key) return
      event.preventDefault()
      if (key === 'next') void stepping.resume('next')
      else if (selected) stores.breakpoints.getState().toggle(selected)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [stores, stepping])
}
