//! Reading the editor's document: the steps that are well-formed, their ids, the tool schema
//! of an input. The document is the person's JSON, so nothing here assumes more than the
//! shape the engine requires; malformed parts are kept and left to validation.
import { INPUTS_NODE, OUTPUT_NODE } from '../../api/rules'
import type { InputSchema, JsonValue, PropertySchema, Step, ToolView, UiPosition, Workflow } from '../../api/types'
import { isObject } from './json'

export { INPUTS_NODE, OUTPUT_NODE }

/** A note's canvas node id is its id under this prefix, apart from step ids (which hold no ':'). */
const NOTE_PREFIX = 'note:'

/** The canvas node id of note `noteId`. */
export function noteNodeId(noteId: string): string {
  return NOTE_PREFIX + noteId
}

/** The note id of a canvas node id, when the node is a note. */
export function noteIdOf(nodeId: string): string | undefined {
  return nodeId.startsWith(NOTE_PREFIX) ? nodeId.slice(NOTE_PREFIX.length) : undefined
}

/** Whether a canvas node id is a step's: not the inputs, the output or a note. */
export function isStepNode(nodeId: string): boolean {
  return nodeId !== INPUTS_NODE && nodeId !== OUTPUT_NODE && noteIdOf(nodeId) === undefined
}

/** A canvas position, as `ui.positions` stores it. */
export type XY = UiPosition

/** Whether a steps-array element is a step the editor can show (an object with a string id). */
export function isStep(value: unknown): value is Step {
  return isObject(value) && typeof value.id === 'string'
}

export function stepIds(doc: Workflow): string[] {
  return doc.steps.filter(isStep).map((s) => s.id)
}

export function stepIndex(doc: Workflow, id: string): number {
  return doc.steps.findIndex((s) => isStep(s) && s.id === id)
}

export function findStep(doc: Workflow, id: string): Step | undefined {
  const i = stepIndex(doc, id)
  return i < 0 ? undefined : doc.steps[i]
}

/** A step's inputs object (absent in the file means empty). */
export function inputsOf(step: Step): { [key: string]: JsonValue } {
  return isObject(step.inputs) ? step.inputs : {}
}

export function inputNames(doc: Workflow): string[] {
  return isObject(doc.inputs) ? Object.keys(doc.inputs) : []
}

/** `doc` with step `id` replaced by `update(step)`; unchanged when the step does not exist. */
export function updateStep(doc: Workflow, id: string, update: (step: Step) => Step): Workflow {
  const i = stepIndex(doc, id)
  if (i < 0) return doc
  const next = update(doc.steps[i])
  if (next === doc.steps[i]) return doc
  const steps = doc.steps.slice()
  steps[i] = next
  return { ...doc, steps }
}

export function schemaOf(tool: ToolView | undefined): InputSchema | undefined {
  const schema = tool?.inputSchema
  return isObject(schema) && isObject(schema.properties) ? schema : undefined
}

export function propertyOf(tool: ToolView | undefined, name: string): PropertySchema | undefined {
  const props = schemaOf(tool)?.properties
  return props && Object.hasOwn(props, name) ? props[name] : undefined
}

export function typesOf(prop: PropertySchema | undefined): string[] {
  if (!prop?.type) return []
  return Array.isArray(prop.type) ? prop.type : [prop.type]
}
