//! While a run is running, checks every second that the socket is still delivering its events
//! and falls back to fetching the run's snapshot when it has gone quiet.
import { useEffect } from 'react'
import { useApp } from '../app/AppContext'
import { useRunStore } from '../state/runStore'

export function useRunWatchdog(): void {
  const { runs } = useApp()
  const running = useRunStore((s) => s.status === 'running')
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => void runs.pollIfSilent(), 1000)
    return () => clearInterval(timer)
  }, [running, runs])
}
