//! The props the builder's forms take (web-forms-api.md: StepForm, WorkflowSettings,
//! ProblemsList), bound to the editor store: values and diagnostics read through selectors,
//! edits committed with their field for keystroke coalescing, renames and completion through the
//! server. The inspector spreads these into the forms.
import { useCallback, useMemo } from 'react'
import type { Diagnostic, Step, Workflow } from '../../api/types'
import { useCanvasStore } from '../../canvas/useCanvasStore'
import { useCatalogStore } from '../../state/catalogStore'
import { useWorkflowStore } from '../../state/workflowStore'
import { findStep, inputNames, stepIds } from '../doc/model'
import { agentToolChoices } from '../forms/agentTools'
import { childWorkflows } from '../forms/orchestration'
import type { CompleteRequest, ProblemsListProps, Renamer, StepFormProps, WorkflowSettingsProps } from '../forms/types'
import { useEditor, useEditorStore } from '../useEditor'

const NONE: Diagnostic[] = []

export function useStepFormProps(id: string): StepFormProps | undefined {
  const store = useEditorStore()
  const step = useEditor((s) => findStep(s.doc, id))
  const diagnostics = useEditor((s) => s.analysis.diagnostics)
  const focus = useEditor((s) => (s.focus?.stepId === id ? s.focus.field : undefined))
  const tool = useCatalogStore((s) => (step ? s.tools[step.tool] : undefined))
  // Ids and input names change far less often than the document: selected as their joined
  // text, so an edit elsewhere (a move, another step's value) does not redraw the form.
  const idsKey = useEditor((s) => stepIds(s.doc).join('\u0000'))
  const namesKey = useEditor((s) => inputNames(s.doc).join('\u0000'))
  const ids = useMemo(() => (idsKey ? idsKey.split('\u0000') : []), [idsKey])
  const names = useMemo(() => (namesKey ? namesKey.split('\u0000') : []), [namesKey])
  const mine = useMemo(() => diagnostics.filter((d) => d.stepId === id), [diagnostics, id])
  const onChange = useCallback((next: Step, field?: string) => store.getState().replaceStep(id, next, field), [store, id])
  const onRename = useCallback<Renamer>((from, to) => store.getState().renameStep(from, to), [store])
  const complete = useCallback((req: CompleteRequest) => store.getState().complete(req), [store])
  const library = useWorkflowStore((s) => s.library)
  const currentId = useWorkflowStore((s) => s.current?.id)
  const children = useMemo(() => childWorkflows(library, currentId), [library, currentId])
  const tools = useCatalogStore((s) => s.tools)
  const toolNames = useMemo(() => Object.keys(tools).sort(), [tools])
  const agentTools = useMemo(() => agentToolChoices(tools, children), [tools, children])
  if (!step) return undefined
  return {
    step,
    tool,
    stepIds: ids,
    inputNames: names,
    diagnostics: mine.length > 0 ? mine : NONE,
    onChange,
    onRename,
    complete,
    focusField: focus,
    childWorkflows: children,
    toolNames,
    agentTools,
  }
}

export function useWorkflowSettingsProps(): WorkflowSettingsProps {
  const store = useEditorStore()
  const workflow = useEditor((s) => s.doc)
  const diagnostics = useEditor((s) => s.analysis.diagnostics)
  const focus = useEditor((s) => (s.focus && s.focus.stepId === undefined ? s.focus.field : undefined))
  const general = useMemo(() => diagnostics.filter((d) => d.stepId === undefined), [diagnostics])
  const onChange = useCallback((next: Workflow, field?: string) => store.getState().replaceWorkflow(next, field), [store])
  const onRenameInput = useCallback<Renamer>((from, to) => store.getState().renameInput(from, to), [store])
  const complete = useCallback((req: CompleteRequest) => store.getState().complete(req), [store])
  return { workflow, diagnostics: general, onChange, onRenameInput, complete, focusField: focus }
}

/** The problems list: a problem selects and centres its step (or the workflow) and focuses its field. */
export function useProblemsListProps(): ProblemsListProps {
  const store = useEditorStore()
  const focusNode = useCanvasStore((s) => s.focus)
  const diagnostics = useEditor((s) => s.analysis.diagnostics)
  const onSelect = useCallback(
    (d: Diagnostic) => {
      if (d.stepId) focusNode(d.stepId)
      else store.getState().select([])
      store.getState().focusField(d.stepId, d.field)
    },
    [store, focusNode],
  )
  return { diagnostics, onSelect }
}
