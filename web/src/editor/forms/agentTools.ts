//! What an `agent` step may offer its model as tools, as pure data: vai's own tools (every tool of
//! the catalog outside control flow, the agent itself excepted — the engine's rule) and the
//! library's workflows (named as a `workflow` step names them), grouped for the picker; a name
//! that is neither is kept and shown as unknown.
import type { ToolView } from '../../api/types'
import type { ChildWorkflow } from './orchestration'

export type ToolGroupName = 'vai tools' | 'Workflows' | 'Unknown'

export interface ToolChoice {
  /** What the step's `tools` holds: a tool or workflow name. */
  value: string
  label: string
  group: ToolGroupName
  description?: string
}

/** The agent's own tool: offering it to itself would recurse. */
const AGENT = 'agent'

export function agentToolChoices(tools: Readonly<Record<string, ToolView>>, workflows: readonly ChildWorkflow[]): ToolChoice[] {
  const own = Object.values(tools)
    .filter((t) => t.category !== 'control_flow' && t.name !== AGENT)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t): ToolChoice => ({ value: t.name, label: t.name, group: 'vai tools', description: t.description }))
  // A workflow named like a tool would be ambiguous to the model; the tool keeps the name.
  const taken = new Set(own.map((c) => c.value))
  const flows = workflows.filter((w) => !taken.has(w.value)).map((w): ToolChoice => ({ value: w.value, label: w.label, group: 'Workflows' }))
  return [...own, ...flows]
}

/** The choice a name stands for, or an unknown one for a name that is neither a tool nor a workflow. */
export function choiceOf(name: string, choices: readonly ToolChoice[]): ToolChoice {
  return choices.find((c) => c.value === name) ?? { value: name, label: name, group: 'Unknown', description: 'Not a vai tool or a workflow of the library' }
}
