//! Milliseconds since `startedAt`, ticking while `running`; the final duration otherwise.
import { useEffect, useState } from 'react'

export function useElapsed(startedAt: number | undefined, running: boolean, durationMs?: number): number | undefined {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => setNow(Date.now()), 100)
    return () => clearInterval(timer)
  }, [running])
  if (durationMs !== undefined && !running) return durationMs
  if (startedAt === undefined) return undefined
  return running ? Math.max(0, now - startedAt) : undefined
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const m = Math.floor(ms / 60_000)
  const s = Math.floor((ms % 60_000) / 1000)
  return `${m} min ${s} s`
}
