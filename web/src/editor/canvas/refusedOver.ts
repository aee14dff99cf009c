//! The canvas side of `refusal` (doc/connect.ts): React Flow speaks in node keys and in the
//! direction the connection is dragged; the editor's refusal in step ids, source to target.
import type { IsValidConnection } from '@xyflow/react'
import { refusal } from '../doc/connect'
import { noteIdOf } from '../doc/model'
import { idOfKey } from '../doc/nodeKeys'
import type { EditorStore } from '../store/createEditorStore'

/**
 * Why the connection dragged from the node `fromKey` may not end on the node `overKey`, if it may
 * not; `reversed` when it was dragged backwards, from an input handle.
 */
export function refusedOver(store: EditorStore, fromKey: string, reversed: boolean, overKey: string | undefined): string | undefined {
  if (overKey === undefined || overKey === fromKey) return undefined
  const { nodeKeys, edges } = store.getState()
  const from = idOfKey(nodeKeys, fromKey)
  const over = idOfKey(nodeKeys, overKey)
  if (noteIdOf(over) !== undefined) return undefined
  return reversed ? refusal(edges, over, from) : refusal(edges, from, over)
}

/** React Flow's `isValidConnection`, asked while a connection is over a handle: a refused one is not offered. */
export function connectionAllowed(store: EditorStore): IsValidConnection {
  return (c) => refusedOver(store, c.source, false, c.target) === undefined
}
