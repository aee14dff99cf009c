//! The inspector while editing: the selected step, note or selection, or the workflow itself.
import { useState } from 'react'
import { noteIdOf } from '../doc/model'
import { useEditor } from '../useEditor'
import NotePanel from './NotePanel'
import SelectionPanel from './SelectionPanel'
import StepPanel from './StepPanel'
import WorkflowPanel from './WorkflowPanel'

/**
 * The key of the selected step's panel: its id, kept through a rename of that step. Another step
 * gets a fresh panel (draft text and field modes must not carry over); a renamed one keeps its
 * form, so renaming does not rebuild every field.
 */
function usePanelKey(id: string | undefined): string | undefined {
  const renamed = useEditor((s) => s.renamed)
  const [panel, setPanel] = useState({ id, key: id })
  if (panel.id === id) return panel.key
  const key = panel.id !== undefined && renamed?.[panel.id] === id ? panel.key : id
  setPanel({ id, key })
  return key
}

export default function EditorInspector() {
  const selection = useEditor((s) => s.selection)
  const node = useEditor((s) => (s.selection.length === 1 ? s.nodes.find((n) => n.id === s.selection[0]) : undefined))
  const panelKey = usePanelKey(node?.kind === 'step' ? node.id : undefined)
  if (selection.length > 1) return <SelectionPanel ids={selection} />
  const note = selection.length === 1 ? noteIdOf(selection[0]) : undefined
  if (note !== undefined) return <NotePanel key={selection[0]} id={note} />
  if (node?.kind === 'step') return <StepPanel key={panelKey} node={node} />
  return <WorkflowPanel />
}
