//! What the connect menu offers: the source's readable fields (the tool's declared outputs, or
//! the workflow's inputs) and the target's inputs (from the tool's schema), branches when the
//! source is a conditional, its routes when the source is a router, `dependsOn`, and the output
//! mapping's fields.
import type { Step, ToolView, Workflow } from '../../api/types'
import { routeRows } from '../forms/routes'
import type { Into } from '../doc/connect'
import { isObject } from '../doc/json'
import { findStep, inputNames, inputsOf, INPUTS_NODE, OUTPUT_NODE, schemaOf, typesOf } from '../doc/model'

export interface SourceField {
  path: string
  label: string
  detail?: string
}

export interface TargetOption {
  into: Into
  label: string
  detail?: string
  required?: boolean
}

const CONDITIONAL = 'conditional'

export function sourceFields(doc: Workflow, source: string, tools: Record<string, ToolView>): SourceField[] {
  if (source === INPUTS_NODE) {
    return inputNames(doc).map((name) => {
      const decl = doc.inputs?.[name]
      return { path: `inputs.${name}`, label: name, detail: isObject(decl) ? [decl.type, decl.description].filter(Boolean).join(' — ') : undefined }
    })
  }
  const step = findStep(doc, source)
  if (!step) return []
  const whole = { path: `${source}.output`, label: 'output', detail: 'the whole output' }
  if (typeof step.forEach === 'string') {
    return [
      { path: `${source}.output.results`, label: 'results', detail: 'one output per item' },
      { path: `${source}.output.count`, label: 'count', detail: 'number of items' },
      whole,
    ]
  }
  const outputs = tools[step.tool]?.outputs ?? []
  return [...outputs.map((o) => ({ path: `${source}.output.${o.name}`, label: o.name, detail: o.description })), whole]
}

export function targetOptions(doc: Workflow, source: string, target: string, tools: Record<string, ToolView>): TargetOption[] {
  if (target === OUTPUT_NODE) {
    return isObject(doc.output)
      ? Object.keys(doc.output).map((field) => ({ into: { kind: 'output', field }, label: field, detail: 'replace this output field' }))
      : []
  }
  const step = findStep(doc, target)
  if (!step) return []
  const options: TargetOption[] = []
  const sourceStep = source === INPUTS_NODE ? undefined : findStep(doc, source)
  if (sourceStep?.tool === CONDITIONAL) {
    options.push({ into: { kind: 'branch', branch: 'then' }, label: 'then branch', detail: `run ${target} when the condition is true` })
    options.push({ into: { kind: 'branch', branch: 'else' }, label: 'else branch', detail: `run ${target} when the condition is false` })
  }
  if (sourceStep) options.push(...routeOptions(sourceStep, target, tools))
  const schema = schemaOf(tools[step.tool])
  const required = new Set(schema?.required ?? [])
  const names = schema ? Object.keys(schema.properties) : Object.keys(inputsOf(step))
  for (const name of names) {
    const prop = schema?.properties[name]
    // Lists of step ids are written by branch and route connections, never by a data wire.
    if (prop?.format === 'step-ids' || prop?.format === 'routes') continue
    options.push({
      into: { kind: 'input', name },
      label: name,
      detail: [typesOf(prop).join(' | '), prop?.description].filter(Boolean).join(' — ') || undefined,
      required: required.has(name),
    })
  }
  if (source !== INPUTS_NODE)
    options.push({ into: { kind: 'dependsOn' }, label: 'run after (dependsOn)', detail: `${target} waits for ${source} without reading it` })
  return options
}

/** One option per route of a router `source` (a step whose tool takes routes): `target` runs on it. */
function routeOptions(source: Step, target: string, tools: Record<string, ToolView>): TargetOption[] {
  const schema = schemaOf(tools[source.tool])
  const name = Object.keys(schema?.properties ?? {}).find((key) => schema?.properties[key].format === 'routes')
  if (!name) return []
  const routes = routeRows(inputsOf(source)[name])
  const from = routes.find((r) => r.steps.includes(target))
  return routes.flatMap((r, index): TargetOption[] =>
    r.id === '' || r === from
      ? []
      : [
          {
            into: { kind: 'route', name, route: r.id, index },
            label: `route ${r.id}`,
            detail: `run ${target} when ${source.id} chooses ${r.id}${from ? ` (moves it from route ${from.id})` : ''}`,
          },
        ],
  )
}

/** A name for a new output field: the last segment of the path, made unique. */
export function outputFieldName(doc: Workflow, path: string): string {
  const base =
    path
      .split('.')
      .filter((s) => s !== 'output')
      .at(-1) ?? 'result'
  const taken = new Set(isObject(doc.output) ? Object.keys(doc.output) : [])
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`
}
