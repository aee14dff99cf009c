//! The time now, for "5 min ago": read once and again every half minute, not on every render.
import { useEffect, useState } from 'react'

const TICK_MS = 30_000

export function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS)
    return () => clearInterval(timer)
  }, [])
  return now
}
