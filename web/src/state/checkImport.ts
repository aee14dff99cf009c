//! Checks text before it is opened from the Paste JSON dialog or replaces the document being
//! edited: too large, not JSON (with the line and column the server's parser reports), or not a
//! workflow. Nothing is opened or replaced on failure.
import { errorInfo } from '../api/client'
import type { PlanResponse, Workflow } from '../api/types'
import { isRecord } from './definition'

/** Plans raw text, so a JSON syntax error comes back with its line and column. */
export interface TextPlanner {
  planText(text: string): Promise<PlanResponse>
}

/** The server's limit on workflow files. */
export const MAX_WORKFLOW_BYTES = 5 * 1024 * 1024

export async function checkImport(api: TextPlanner, text: string, label: string): Promise<{ doc: Workflow } | { error: string }> {
  const bytes = new TextEncoder().encode(text).length
  if (bytes > MAX_WORKFLOW_BYTES) {
    return { error: `${label} is ${(bytes / 1024 / 1024).toFixed(1)} MB; workflow files are limited to 5 MB. Nothing was changed.` }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    try {
      const plan = await api.planText(text)
      const d = plan.diagnostics.find((x) => x.line !== undefined) ?? plan.diagnostics[0]
      const where = d?.line !== undefined ? ` at line ${d.line}:${d.column ?? 1}` : ''
      return { error: `${label} is not valid JSON${where}: ${d?.message ?? 'it could not be parsed'}. Nothing was changed.` }
    } catch (e) {
      return { error: `${label} is not valid JSON (${errorInfo(e).message}). Nothing was changed.` }
    }
  }
  if (!isRecord(value)) return { error: `${label} is not a workflow: expected a JSON object with "steps". Nothing was changed.` }
  if (value.steps !== undefined && !Array.isArray(value.steps)) return { error: `${label} is not a workflow: "steps" must be a list. Nothing was changed.` }
  return { doc: value as unknown as Workflow }
}
