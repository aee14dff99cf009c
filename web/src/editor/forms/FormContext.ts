//! What every field of one form shares: the completer and where the form sits in the document
//! (the step being edited, the step ids it may name, the tools and workflows an agent may call).
import { createContext, useContext } from 'react'
import type { ToolChoice } from './agentTools'
import type { Completer } from './types'

export interface FormContextValue {
  complete: Completer
  /** The step being edited; absent in the workflow settings. */
  stepId?: string
  stepIds: readonly string[]
  /** What an `agent` step's `tools` may name (absent in the workflow settings). */
  agentTools?: readonly ToolChoice[]
}

export const FormContext = createContext<FormContextValue | null>(null)

export function useFormContext(): FormContextValue {
  const ctx = useContext(FormContext)
  if (!ctx) throw new Error('form fields must be rendered inside a StepForm or WorkflowSettings')
  return ctx
}
