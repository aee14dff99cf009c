//! The open document's reference index from the engine's parser, fetched once per opened
//! document and shared by every read-only template view.
import { useEffect, useState } from 'react'
import type { Api } from '../api/client'
import type { JsonValue, ReferenceSite } from '../api/types'
import { useApp } from '../app/AppContext'
import { isRecord } from '../state/definition'
import { useWorkflowStore } from '../state/workflowStore'

export type ReferenceIndex = ReadonlyMap<string, readonly ReferenceSite[]>

/** The reference index of a document, asked of the server once per document object. */
export type ReferenceIndexes = (definition: Record<string, unknown>) => Promise<ReferenceIndex>

export function referenceIndexes(api: Api): ReferenceIndexes {
  // Keyed by the document object itself: a newly opened (or edited) document is a new object,
  // and a closed one is collected with its entry.
  const requests = new WeakMap<object, Promise<ReferenceIndex>>()
  return (definition) => {
    let pending = requests.get(definition)
    if (!pending) {
      pending = api.references(definition as JsonValue).then(({ references }) => {
        const index = new Map<string, ReferenceSite[]>()
        for (const site of references) index.set(site.pointer, [...(index.get(site.pointer) ?? []), site])
        return index
      })
      // A failed request is asked again by the next view that needs it.
      pending.catch(() => requests.delete(definition))
      requests.set(definition, pending)
    }
    return pending
  }
}

/** Reference sites by the JSON pointer of the string holding them; undefined until known. */
export function useReferences(): ReferenceIndex | undefined {
  const indexOf = useApp().references
  const definition = useWorkflowStore((s) => s.current?.definition)
  const [loaded, setLoaded] = useState<{ of: unknown; index: ReferenceIndex }>()
  useEffect(() => {
    if (!isRecord(definition)) return
    let live = true
    indexOf(definition).then(
      (index) => live && setLoaded({ of: definition, index }),
      () => {}, // without the index, templates show as plain text
    )
    return () => {
      live = false
    }
  }, [definition, indexOf])
  return loaded && loaded.of === definition ? loaded.index : undefined
}
