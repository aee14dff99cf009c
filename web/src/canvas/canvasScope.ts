//! Which workflow the canvas draws and so which run its nodes show: the open workflow and its
//! run, or a sub-workflow opened from a `workflow` step and that step's child run. The nodes
//! read it from context, so one set of node components draws every level.
import { createContext, use } from 'react'
import type { GraphEdge, JsonValue } from '../api/types'
import type { RunView } from '../state/runReducer'

export interface CanvasScope {
  /** The `workflow` steps from the open workflow down to the one drawn; empty for the workflow itself. */
  path: readonly string[]
  /** The drawn workflow's definition, where its `workflow` steps name their children. */
  definition?: JsonValue
  /**
   * The drawn graph's edges (what each step waited for, for the run's critical path). A getter,
   * read when the run changes: while editing, the edges change with every edit, and a scope that
   * changed with them would redraw every node.
   */
  edges?: () => readonly GraphEdge[]
}

export const CanvasScopeContext = createContext<CanvasScope>({ path: [] })

export function useCanvasScope(): CanvasScope {
  return use(CanvasScopeContext)
}

/** The child run at `path` (`run` itself for an empty path); undefined until the run gets there. */
export function runAt(run: RunView, path: readonly string[]): RunView | undefined {
  let at: RunView | undefined = run
  for (const stepId of path) at = at?.children[stepId]
  return at
}
