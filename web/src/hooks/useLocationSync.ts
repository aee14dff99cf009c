//! Opens the workflow named in `?workflow=` on load and on back/forward.
import { useEffect } from 'react'
import { openFromLocation } from '../state/openWorkflow'

export function useLocationSync(): void {
  useEffect(() => {
    openFromLocation()
    const onPop = () => openFromLocation()
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [])
}
