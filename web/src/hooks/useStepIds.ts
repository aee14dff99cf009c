//! The step ids of the open graph, for recognising template references.
import { useMemo } from 'react'
import { useWorkflowStore } from '../state/workflowStore'

const EMPTY: ReadonlySet<string> = new Set()

export function useStepIds(): ReadonlySet<string> {
  const graph = useWorkflowStore((s) => s.graph)
  return useMemo(() => (graph ? new Set(graph.nodes.filter((n) => n.kind === 'step').map((n) => n.id)) : EMPTY), [graph])
}
