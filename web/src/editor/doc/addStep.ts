//! Adding a step: a unique readable id from the tool name and the inputs the tool declares as
//! required, filled with their declared defaults.
//!
//! Optional inputs are left out even when they declare a default: the engine applies the same
//! default (the tools read it from the declaration), the form shows it, and writing it would
//! freeze today's default into the file and shadow workflow-level `defaults` (rerank's `model`
//! falls back to `defaults.rerankModel`). A required input without a default is left empty for
//! the person to fill — validation points at it — except lists the builder appends to
//! (`then`/`else`, lists of arrays), which start as `[]`, and a router's routes and an
//! evaluator's metrics, which start with rows to fill in (two routes, one metric), so the
//! step shows its shape in the form and on the canvas.
import type { JsonValue, PropertySchema, Step, ToolView, Workflow } from '../../api/types'
import { metricsOf, newMetric } from '../forms/metrics'
import { newRoute, routesOf } from '../forms/routes'
import { idBase, numberedId } from './ids'
import { schemaOf, stepIds, typesOf } from './model'

export function initialInputs(tool: ToolView | undefined): { [key: string]: JsonValue } {
  const schema = schemaOf(tool)
  const inputs: { [key: string]: JsonValue } = {}
  if (!schema) return inputs
  for (const name of schema.required ?? []) {
    const prop = schema.properties[name]
    if (!prop) continue
    if (prop.default !== undefined) inputs[name] = structuredClone(prop.default)
    else if (prop.format === 'routes') inputs[name] = twoRoutes()
    else if (prop.format === 'metrics') inputs[name] = metricsOf([newMetric([])])
    else if (isListInput(prop)) inputs[name] = []
  }
  return inputs
}

/** Routes `route_1` and `route_2`, to be named, described and given steps. */
function twoRoutes(): JsonValue[] {
  const first = newRoute([])
  return routesOf([first, newRoute([first])])
}

/** An array input whose elements are each connected separately: step ids, or a list of arrays. */
export function isListInput(prop: PropertySchema): boolean {
  if (prop.format === 'step-ids') return true
  const types = typesOf(prop)
  const itemTypes = typesOf(prop.items)
  return types.includes('array') && itemTypes.length === 1 && itemTypes[0] === 'array'
}

/** A new step of `toolName` with an id not in `taken`. */
export function newStep(toolName: string, tool: ToolView | undefined, taken: ReadonlySet<string>): Step {
  return { id: numberedId(idBase(toolName), taken), tool: toolName, inputs: initialInputs(tool) }
}

/** `doc` with `step` appended; returns the new document and the step's id. */
export function addStep(doc: Workflow, toolName: string, tool: ToolView | undefined): { doc: Workflow; id: string } {
  const step = newStep(toolName, tool, new Set(stepIds(doc)))
  return { doc: { ...doc, steps: [...doc.steps, step] }, id: step.id }
}

/** `doc` with `steps` appended as they are (ids already unique). */
export function appendSteps(doc: Workflow, steps: Step[]): Workflow {
  return steps.length === 0 ? doc : { ...doc, steps: [...doc.steps, ...steps] }
}
