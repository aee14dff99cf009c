//! The running editor's store, for the editor's components (mounted only while editing).
import { useState } from 'react'
import { useStore } from 'zustand'
import { useEditSession } from './editSession'
import type { EditorState, EditorStore } from './store/createEditorStore'

export function useEditorStore(): EditorStore {
  const store = useEditSession((s) => s.handle?.store)
  // The session may end while a component is on its way out: it keeps the store it had.
  const [mounted] = useState(store)
  const current = store ?? mounted
  if (!current) throw new Error('useEditorStore outside an editing session')
  return current
}

/** A narrow selector over the editor store: the component re-renders only when it changes. */
export function useEditor<T>(selector: (s: EditorState) => T): T {
  return useStore(useEditorStore(), selector)
}
