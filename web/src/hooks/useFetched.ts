//! One request per key: the result of `fetch(key)`, dropped when the key changes before it lands.
import { useEffect, useState } from 'react'
import { errorInfo } from '../api/client'

export interface Fetched<T> {
  value?: T
  error?: string
  loading: boolean
}

/** Calls `fetch(key)` whenever `key` changes; no key, no request. `fetch` is read at that moment. */
export function useFetched<T>(key: string | undefined, fetch: (key: string) => Promise<T>): Fetched<T> {
  const [result, setResult] = useState<{ key: string; value?: T; error?: string }>()
  useEffect(() => {
    if (!key) return
    let live = true
    fetch(key).then(
      (value) => live && setResult({ key, value }),
      (e) => live && setResult({ key, error: errorInfo(e).message }),
    )
    return () => {
      live = false
    }
    // The key names everything the request depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])
  if (!key) return { loading: false }
  if (result?.key !== key) return { loading: true }
  return { value: result.value, error: result.error, loading: false }
}
