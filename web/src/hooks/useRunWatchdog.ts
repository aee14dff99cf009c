//! While a run is running, checks every second that the socket is still delivering its events
//! and falls back to fetching the run's snapshot when it has gone quiet.
import { useEffect } from 'react'
import { pollRunIfSilent } from '../state/runActions'
import { useRunStore } from '../state/runStore'

export function useRunWatchdog(): void {
  const running = useRunStore((s) => s.status === 'running')
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => void pollRunIfSilent(), 1000)
    return () => clearInterval(timer)
  }, [running])
}
