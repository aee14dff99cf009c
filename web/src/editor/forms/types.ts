//! The interface between the editor core and the builder's forms (web-forms-api.md): controlled
//! components with no store of their own; the editor owns the document and the API.
import type { CompleteResponse, Diagnostic, Step, ToolView, Workflow } from '../../api/types'
import type { ToolChoice } from './agentTools'
import type { ChildWorkflow } from './orchestration'

export type CompleteRequest = { stepId?: string; field: string; text: string; cursor: number }
export type Completer = (req: CompleteRequest) => Promise<CompleteResponse>
/** Resolves to an error message to show at the field, or undefined when the rename is done. */
export type Renamer = (from: string, to: string) => Promise<string | undefined>

/**
 * An edit of part of the step being edited: `edit` gets the step as it stands when the edit is
 * made, so a section that did not redraw for another part's change never writes back an older
 * step (the form's sections are memoised: a keystroke redraws only the section it is in).
 */
export type StepUpdate = (edit: (step: Step) => Step, field?: string) => void

export interface StepFormProps {
  step: Step
  tool?: ToolView // undefined when the step's tool is unknown: raw JSON only
  stepIds: string[] // every step id in the document, in order
  inputNames: string[] // declared workflow input names
  diagnostics: Diagnostic[] // this step's diagnostics from draft validation
  /** One call per edit; `field` (e.g. "inputs.query", "condition", "retry") lets the
   *  editor coalesce successive keystrokes in one field into one undo entry. */
  onChange(next: Step, field?: string): void
  onRename: Renamer // id rename (the editor rewrites references via the server)
  complete: Completer
  focusField?: string // focus and scroll to this field when it changes (problems list)
  childWorkflows?: readonly ChildWorkflow[] // what a `workflow` step may call (the library's)
  toolNames?: readonly string[] // the catalog's tools, for the compensation's select
  agentTools?: readonly ToolChoice[] // what an `agent` step may offer its model (tools, workflows)
}

export interface WorkflowSettingsProps {
  workflow: Workflow
  diagnostics: Diagnostic[] // diagnostics without a stepId
  onChange(next: Workflow, field?: string): void // everything except input renames
  onRenameInput: Renamer
  complete: Completer
  focusField?: string // e.g. "inputs.query", "output.answer", "name"
}

export interface ProblemsListProps {
  diagnostics: Diagnostic[]
  onSelect(d: Diagnostic): void // editor selects + centres the step and sets focusField
}
