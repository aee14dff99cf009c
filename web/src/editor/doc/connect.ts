//! Wiring two nodes: writes `{{ <path> }}` into the chosen target input, a step id into a
//! conditional's `then`/`else`, a router's route (moving it out of the router's other routes: a
//! step is in one route only) or a step's `dependsOn`, or a field of the output mapping — and
//! refuses a wire that would close a cycle, naming it (`a → b → c → a`), before anything is
//! picked (`refusal`, which the canvas asks while a connection is dragged).
import type { JsonValue, Step, ToolView, Workflow } from '../../api/types'
import { routeRows, routesOf } from '../forms/routes'
import { isListInput } from './addStep'
import { isObject } from './json'
import { findStep, inputsOf, INPUTS_NODE, OUTPUT_NODE, propertyOf, updateStep } from './model'

/** Where a connection writes. */
export type Into =
  | { kind: 'input'; name: string }
  | { kind: 'branch'; branch: 'then' | 'else' }
  /** Route `route` (at `index`) of the router's routes input `name`. */
  | { kind: 'route'; name: string; route: string; index: number }
  | { kind: 'dependsOn' }
  | { kind: 'output'; field: string }

export interface Connection {
  /** A step id, or `__inputs`. */
  source: string
  /** What the target reads: `search.output.results`, `inputs.query` (not for branch/dependsOn). */
  path?: string
  /** A step id, or `__output`. */
  target: string
  into: Into
}

export type ConnectResult = { doc: Workflow } | { error: string }

export interface Link {
  source: string
  target: string
}

/**
 * The cycle a new link `from → to` would close over `links` (which run from the step read
 * to the step reading it), as the ids around it starting and ending at `from`, or undefined.
 */
export function findCycle(links: Link[], from: string, to: string): string[] | undefined {
  if (from === to) return [from, from]
  const next = new Map<string, string[]>()
  for (const l of links) {
    if (l.source === INPUTS_NODE || l.target === OUTPUT_NODE) continue
    const list = next.get(l.source)
    if (list) list.push(l.target)
    else next.set(l.source, [l.target])
  }
  // Breadth-first from `to`, looking for `from`: the shortest way round is the clearest message.
  const cameFrom = new Map<string, string>([[to, to]])
  const queue = [to]
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]
    if (at === from) {
      const path = [at]
      for (let p = at; p !== to;) {
        p = cameFrom.get(p)!
        path.unshift(p)
      }
      return [from, ...path]
    }
    for (const n of next.get(at) ?? []) {
      if (cameFrom.has(n)) continue
      cameFrom.set(n, at)
      queue.push(n)
    }
  }
  return undefined
}

/** The link a connection adds to the dependency graph (a branch runs from the conditional). */
export function linkOf(c: Connection): Link {
  return { source: c.source, target: c.target }
}

export function template(path: string): string {
  return `{{ ${path} }}`
}

function appendUnique(list: JsonValue | undefined, item: string): JsonValue[] {
  const items = Array.isArray(list) ? list : []
  return items.includes(item) ? items : [...items, item]
}

/** The new value of a step input that `ref` is connected into. */
function wireInput(current: JsonValue | undefined, ref: string, tool: ToolView | undefined, name: string): JsonValue {
  const prop = propertyOf(tool, name)
  if (Array.isArray(current)) return appendUnique(current, ref)
  if (prop && isListInput(prop)) return [ref]
  // Long text (a prompt, a template) gets the reference added at the end; anything else is
  // replaced by it, as the value now comes from the wire.
  if (prop?.format === 'multiline' && typeof current === 'string' && current.trim() !== '') {
    return current.includes(ref) ? current : `${current}${/\s$/.test(current) ? '' : ' '}${ref}`
  }
  return ref
}

function setInput(step: Step, name: string, value: JsonValue): Step {
  return { ...step, inputs: { ...inputsOf(step), [name]: value } }
}

/**
 * Why a connection from `source` to `target` cannot be made at all, whatever would be read and
 * written — so the canvas refuses the target while the connection is still being dragged — or
 * undefined when the connect menu may ask what goes where.
 */
export function refusal(links: Link[], source: string, target: string): string | undefined {
  if (target === INPUTS_NODE) return 'Workflow inputs come from the run, not from a step: connect from Inputs instead.'
  if (source === OUTPUT_NODE) return 'The output is the end of the workflow: nothing reads from it.'
  if (source === target) return 'A step cannot be connected to itself.'
  if (source === INPUTS_NODE || target === OUTPUT_NODE) return undefined
  const cycle = findCycle(links, source, target)
  return cycle ? `That connection would create a cycle: ${cycle.join(' → ')}` : undefined
}

export function connect(doc: Workflow, c: Connection, tools: Record<string, ToolView>, links: Link[]): ConnectResult {
  if (c.into.kind !== 'output' && c.target !== OUTPUT_NODE && !findStep(doc, c.target)) return { error: `There is no step "${c.target}".` }
  if (c.source !== INPUTS_NODE && !findStep(doc, c.source)) return { error: `There is no step "${c.source}".` }
  const refused = refusal(links, c.source, c.target)
  if (refused) return { error: refused }
  const into = c.into
  switch (into.kind) {
    case 'input': {
      if (!c.path) return { error: 'Choose what to read from the source.' }
      const ref = template(c.path)
      return {
        doc: updateStep(doc, c.target, (step) => setInput(step, into.name, wireInput(inputsOf(step)[into.name], ref, tools[step.tool], into.name))),
      }
    }
    case 'branch':
      return {
        doc: updateStep(doc, c.source, (step) => setInput(step, into.branch, appendUnique(inputsOf(step)[into.branch], c.target))),
      }
    case 'route': {
      const routes = routeRows(inputsOf(findStep(doc, c.source)!)[into.name])
      if (!routes.some((r) => r.id === into.route)) return { error: `The router ${c.source} has no route "${into.route}".` }
      const moved = routes.map((r) => {
        if (r.id !== into.route) return { ...r, steps: r.steps.filter((s) => s !== c.target) }
        return r.steps.includes(c.target) ? r : { ...r, steps: [...r.steps, c.target] }
      })
      return { doc: updateStep(doc, c.source, (step) => setInput(step, into.name, routesOf(moved))) }
    }
    case 'dependsOn':
      return {
        doc: updateStep(doc, c.target, (step) => ({ ...step, dependsOn: appendUnique(step.dependsOn, c.source) as string[] })),
      }
    case 'output': {
      if (!c.path) return { error: 'Choose what to read from the source.' }
      if (doc.output !== undefined && !isObject(doc.output)) {
        return { error: 'The output mapping is a single value; edit it in the workflow settings to add fields.' }
      }
      const output = isObject(doc.output) ? doc.output : {}
      return { doc: { ...doc, output: { ...output, [into.field]: template(c.path) } } }
    }
  }
}
