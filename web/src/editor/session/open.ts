//! What an editing session starts from: the open workflow (or its kept draft), a new empty
//! workflow, or a draft restored after a reload.
import type { Workflow } from '../../api/types'
import type { WorkflowStore } from '../../state/workflowStore'
import { loadDraft, newKey, NEW_PREFIX, type Draft } from '../drafts'
import type { StartRequest } from '../editSession'
import { isObject } from '../doc/json'
import { UNTITLED } from '../store/fileName'
import type { EditorInit } from '../store/state'

export const SCHEMA_URL = 'https://vai.dev/schemas/workflow-v1.json'

export function emptyWorkflow(name = UNTITLED): Workflow {
  return { $schema: SCHEMA_URL, name, steps: [] }
}

export type Opening = { init: EditorInit; restoredAt?: number } | { error: string }

function fromDraft(draft: Draft): Opening {
  return {
    init: {
      doc: draft.doc,
      source: { key: draft.key, id: draft.id, label: draft.label, readOnly: draft.readOnly, version: draft.version },
      savedJson: draft.savedJson,
    },
    restoredAt: draft.savedAt,
  }
}

/** The document to edit for `request` (`workflow`: the app's open workflow), or why there is none. */
export function opening(request: StartRequest, workflow: Pick<WorkflowStore, 'current' | 'graph' | 'diagnostics'>): Opening {
  if (request.kind === 'draft') return fromDraft(request.draft)
  if (request.kind === 'new') {
    const doc = request.doc ?? emptyWorkflow()
    // Never saved: unsaved from the start, so it is kept as a draft and survives a reload.
    return { init: { doc, source: { key: newKey(), label: doc.name, readOnly: true }, savedJson: '' } }
  }
  const { current, graph, diagnostics } = workflow
  if (!current) return { error: 'Open a workflow first.' }
  const draft = loadDraft(current.key)
  if (draft) return fromDraft(draft)
  const definition = current.definition
  if (!isObject(definition))
    return { error: 'This workflow is not valid JSON, so it cannot be edited on the canvas. Fix it in a text editor, or paste the corrected JSON.' }
  if (definition.steps !== undefined && !Array.isArray(definition.steps))
    return { error: '"steps" is not a list, so this workflow cannot be edited on the canvas.' }
  const doc = (Array.isArray(definition.steps) ? definition : { ...definition, steps: [] }) as unknown as Workflow
  const file = current.id?.startsWith('file:') === true
  return {
    init: {
      doc,
      source: { key: current.key, id: current.id, label: current.label, readOnly: current.readOnly ?? !file, version: current.version },
      savedJson: JSON.stringify(definition),
      graph,
      diagnostics,
    },
  }
}

export function isNewKey(key: string): boolean {
  return key.startsWith(NEW_PREFIX)
}
