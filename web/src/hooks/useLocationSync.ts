//! Opens the workflow named in `?workflow=` on load and on back/forward.
import { useEffect } from 'react'
import { useApp } from '../app/AppContext'

export function useLocationSync(): void {
  const { open } = useApp()
  useEffect(() => {
    open.fromLocation()
    const onPop = () => open.fromLocation()
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [open])
}
