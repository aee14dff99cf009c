//! The inspector while editing: the selected step, note or selection, or the workflow itself.
import { useEditor } from '../useEditor'
import NotePanel from './NotePanel'
import SelectionPanel from './SelectionPanel'
import StepPanel from './StepPanel'
import WorkflowPanel from './WorkflowPanel'

export default function EditorInspector() {
  const selection = useEditor((s) => s.selection)
  const node = useEditor((s) => (s.selection.length === 1 ? s.nodes.find((n) => n.id === s.selection[0]) : undefined))
  if (selection.length > 1) return <SelectionPanel ids={selection} />
  if (selection.length === 1 && selection[0].startsWith('note:')) return <NotePanel key={selection[0]} id={selection[0].slice('note:'.length)} />
  if (node?.kind === 'step') return <StepPanel key={node.id} node={node} />
  return <WorkflowPanel />
}
