//! Which workflow a `workflow` step calls, found in the library as the server finds it
//! (runtime/src/library.rs, `Children::load`): a file beside the calling workflow
//! (`<name>.vai-workflow.json`, or `<name>` itself when it ends in `.json`), else a built-in,
//! else an example, by name. Also the breadcrumb of the sub-workflows the canvas has opened.
import type { GraphView, JsonValue, WorkflowSummary } from '../api/types'
import { isRecord, stepOf } from '../state/definition'

const FILE_SUFFIX = '.vai-workflow.json'

/** One sub-workflow the canvas has opened, from step `stepId` of the level before it. */
export interface SubLevel {
  /** The `workflow` step that calls it. */
  stepId: string
  /** Its `inputs.workflow`, as written (`hold-seat`). */
  workflow: string
  /** Its library id (`example:hold-seat`). */
  id: string
  graph: GraphView
  definition?: JsonValue
}

/**
 * The child step `stepId` calls, as written; undefined when the step is not a `workflow` step
 * or names its child with a template (known only when the run gets there).
 */
export function childWorkflowName(definition: JsonValue | undefined, stepId: string): string | undefined {
  const step = stepOf(definition, stepId)
  if (step?.tool !== 'workflow' || !isRecord(step.inputs)) return undefined
  const name = step.inputs.workflow
  if (typeof name !== 'string' || name === '' || name.includes('{{')) return undefined
  return name
}

/** The library id of the child named `name`, by the server's rule; undefined when none is listed. */
export function childWorkflowId(name: string, library: readonly WorkflowSummary[]): string | undefined {
  const file = name.endsWith('.json') ? name : `${name}${FILE_SUFFIX}`
  const candidates = [`file:${file}`, `builtin:${name}`, `example:${name}`]
  const listed = new Set(library.map((w) => w.id))
  return candidates.find((id) => listed.has(id))
}

/** What the breadcrumb shows for each level: the open workflow, then `step (child)` per level. */
export function crumbs(root: string, trail: readonly SubLevel[]): string[] {
  return [root, ...trail.map((level) => `${level.stepId} (${level.workflow})`)]
}
