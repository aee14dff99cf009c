//! Dark by default; the user's choice is remembered.
import { useCallback } from 'react'
import type { Mode } from '../theme'
import { useStoredState } from './useStoredState'

export function useThemeMode(): [Mode, () => void] {
  const [mode, setMode] = useStoredState<Mode>('vai.theme', 'dark')
  const toggle = useCallback(() => setMode(mode === 'dark' ? 'light' : 'dark'), [mode, setMode])
  return [mode === 'light' ? 'light' : 'dark', toggle]
}
