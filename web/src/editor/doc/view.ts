//! The graph the canvas draws while editing, built from the document itself so an edit shows at
//! once: nodes come from the steps and the tool catalog (one node object per step object, so an
//! edit re-creates only the nodes it touched); edges come from the server's plan of the document
//! and, until that answer arrives, from the previous edges adjusted by the edit.
import { edgeId } from '../../api/rules'
import type { GraphEdge, GraphNode, InputField, JsonValue, Step, ToolView, Workflow } from '../../api/types'
import type { Connection } from './connect'
import { isObject } from './json'
import type { InputsGraphNode, OutputGraphNode, StepGraphNode } from '../../canvas/flowTypes'
import { inputsOf, INPUTS_NODE, isStep, OUTPUT_NODE } from './model'

/** Longest node summary, in characters (as the server's graph view). */
const SUMMARY_CHARS = 80
/** How a step of an unknown tool is drawn (as the server draws it). */
const UNKNOWN = { category: 'utility', color: '#9E9E9E', icon: 'HelpOutline' } as const

/** One line for a node: the main input's text, or its JSON, shortened. */
export function summaryOf(value: JsonValue | undefined): string | undefined {
  if (value === undefined) return undefined
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  const line = text.split(/\s+/).filter(Boolean).join(' ')
  const chars = Array.from(line)
  return chars.length > SUMMARY_CHARS ? `${chars.slice(0, SUMMARY_CHARS).join('')}…` : line
}

export function stepNode(step: Step, tool: ToolView | undefined): StepGraphNode {
  const main = tool?.mainInput ? inputsOf(step)[tool.mainInput] : undefined
  const node: StepGraphNode = {
    kind: 'step',
    id: step.id,
    name: typeof step.name === 'string' && step.name !== '' ? step.name : step.id,
    tool: String(step.tool),
    category: tool?.category ?? UNKNOWN.category,
    color: tool?.color ?? UNKNOWN.color,
    icon: tool?.icon ?? UNKNOWN.icon,
    continueOnError: step.continueOnError === true,
  }
  if (typeof step.description === 'string') node.description = step.description
  const summary = summaryOf(main)
  if (summary !== undefined) node.summary = summary
  if (typeof step.condition === 'string') node.condition = step.condition
  if (typeof step.forEach === 'string') node.forEach = step.forEach
  return node
}

function inputFields(inputs: Workflow['inputs']): InputField[] {
  if (!isObject(inputs)) return []
  return Object.entries(inputs).map(([name, decl]) => {
    const field: InputField = {
      name,
      type: isObject(decl) && typeof decl.type === 'string' ? decl.type : 'string',
      required: isObject(decl) && decl.required === true,
    }
    if (isObject(decl) && decl.default !== undefined) field.default = decl.default
    if (isObject(decl) && typeof decl.description === 'string') field.description = decl.description
    return field
  })
}

const NO_INPUTS: InputsGraphNode = { kind: 'inputs', id: INPUTS_NODE, inputs: [] }

/** Whether two step nodes draw the same (every field is a string, a boolean or absent). */
function sameNode(a: StepGraphNode, b: StepGraphNode): boolean {
  const keys = Object.keys(a) as (keyof StepGraphNode)[]
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k])
}

/**
 * Builds nodes, reusing node objects: a node is re-created only when its step object (or the
 * inputs declaration, or the output mapping) changed, and even then the previous node of that
 * step is kept when it draws the same (an edit of a setting the card does not show, or of a
 * reference a rename rewrote). One cache per tool catalog.
 */
export class NodeBuilder {
  private steps = new WeakMap<Step, StepGraphNode>()
  private byId = new Map<string, StepGraphNode>()
  private inputs = new WeakMap<object, InputsGraphNode>()
  private outputs = new WeakMap<object, OutputGraphNode>()
  private lastOutput?: { output: JsonValue | undefined; node: OutputGraphNode }
  private readonly tools: Record<string, ToolView>

  constructor(tools: Record<string, ToolView>) {
    this.tools = tools
  }

  build(doc: Workflow): GraphNode[] {
    const nodes: GraphNode[] = [this.inputsNode(doc)]
    for (const step of doc.steps) {
      if (!isStep(step)) continue
      let node = this.steps.get(step)
      if (!node) {
        const made = stepNode(step, this.tools[step.tool])
        const last = this.byId.get(step.id)
        node = last && sameNode(last, made) ? last : made
        this.steps.set(step, node)
      }
      this.byId.set(step.id, node)
      nodes.push(node)
    }
    nodes.push(this.outputNode(doc.output))
    return nodes
  }

  private inputsNode(doc: Workflow): InputsGraphNode {
    if (!isObject(doc.inputs)) return NO_INPUTS
    let node = this.inputs.get(doc.inputs)
    if (!node) {
      node = { kind: 'inputs', id: INPUTS_NODE, inputs: inputFields(doc.inputs) }
      this.inputs.set(doc.inputs, node)
    }
    return node
  }

  /** The output node is always drawn while editing, so there is somewhere to connect to. */
  private outputNode(output: JsonValue | undefined): OutputGraphNode {
    if (isObject(output)) {
      let node = this.outputs.get(output)
      if (!node) {
        node = { kind: 'output', id: OUTPUT_NODE, fields: Object.keys(output) }
        this.outputs.set(output, node)
      }
      return node
    }
    if (this.lastOutput && this.lastOutput.output === output) return this.lastOutput.node
    const node: OutputGraphNode = { kind: 'output', id: OUTPUT_NODE, fields: [] }
    this.lastOutput = { output, node }
    return node
  }
}

export { edgeId }

/** The edge a connection will have once planned (its field may gain an index then). */
export function edgeOf(c: Connection): GraphEdge {
  const { source, target, into } = c
  switch (into.kind) {
    case 'input': {
      const field = `inputs.${into.name}`
      return { id: edgeId(source, target, field), source, target, kind: source === INPUTS_NODE ? 'input' : 'reference', label: c.path ?? '', field }
    }
    case 'branch': {
      const field = `inputs.${into.branch}`
      return { id: edgeId(source, target, field), source, target, kind: into.branch, label: target, field }
    }
    case 'route': {
      // As the plan names it: one edge per route, from the route's steps list.
      const field = `inputs.${into.name}[${into.index}].steps`
      return { id: edgeId(source, target, field), source, target, kind: 'route', label: into.route, field }
    }
    case 'dependsOn':
      return { id: edgeId(source, target, 'dependsOn'), source, target, kind: 'depends_on', label: source, field: 'dependsOn' }
    case 'output': {
      const field = `output.${into.field}`
      return { id: edgeId(source, target, field), source, target, kind: 'output', label: c.path ?? '', field }
    }
  }
}

/**
 * The previous edges adjusted to a new document before the server has planned it: edges of
 * removed nodes go, renamed nodes follow, and `added` edges join.
 */
export function adjustEdges(edges: GraphEdge[], nodes: GraphNode[], renames: Record<string, string> = {}, added: GraphEdge[] = []): GraphEdge[] {
  const ids = new Set(nodes.map((n) => n.id))
  const rename = (id: string) => renames[id] ?? id
  const out: GraphEdge[] = []
  const seen = new Set<string>()
  for (const e of [...edges, ...added]) {
    const source = rename(e.source)
    const target = rename(e.target)
    if (!ids.has(source) || !ids.has(target)) continue
    const moved = source === e.source && target === e.target ? e : { ...e, source, target, id: edgeId(source, target, e.field) }
    if (seen.has(moved.id)) continue
    seen.add(moved.id)
    out.push(moved)
  }
  return out.length === edges.length && out.every((e, i) => e === edges[i]) ? edges : out
}
