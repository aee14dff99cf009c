//! What every field of one form shares: the completer and where the form sits in the document
//! (the step being edited, the step ids it may name).
import { createContext, useContext } from 'react'
import type { Completer } from './types'

export interface FormContextValue {
  complete: Completer
  /** The step being edited; absent in the workflow settings. */
  stepId?: string
  stepIds: readonly string[]
}

export const FormContext = createContext<FormContextValue | null>(null)

export function useFormContext(): FormContextValue {
  const ctx = useContext(FormContext)
  if (!ctx) throw new Error('form fields must be rendered inside a StepForm or WorkflowSettings')
  return ctx
}
