//! The run's critical path: the chain of steps that decided its total time. Walk back from the
//! step that finished last, each time to the predecessor that finished last (the one it waited
//! for), to a step that waited for nothing. Pure; the canvas overlay highlights what it returns.
import type { GraphEdge, StepState } from '../api/types'

/** When a step ran, in milliseconds from the start of the run. */
export interface Span {
  start: number
  end: number
}

/** A dependency: `target` waits for `source`. */
export interface Dependency {
  source: string
  target: string
}

export interface CriticalPath {
  /** Step ids, first to last. */
  steps: string[]
  /** `source>target` of each link between consecutive steps of the path. */
  links: ReadonlySet<string>
}

/** How the critical path is drawn: apart from every category colour, the selection and a pause. */
export const CRITICAL_COLOR = '#EC407A'

export const NO_PATH: CriticalPath = { steps: [], links: new Set() }

const IO_NODES = new Set(['__inputs', '__output'])

export function linkKey(source: string, target: string): string {
  return `${source}>${target}`
}

/** The edges that make a step wait for another (references, `dependsOn`, branches, routes). */
export function dependencies(edges: readonly GraphEdge[]): Dependency[] {
  return edges.filter((e) => !IO_NODES.has(e.source) && !IO_NODES.has(e.target) && e.source !== e.target)
}

/** Steps that took no time of their own: they pass their predecessors' end on, and are never on the path. */
function passesThrough(state: StepState | undefined): boolean {
  return state?.status === 'skipped' || state?.status === 'cancelled'
}

/**
 * Each step's span as the engine schedules it — a step starts as soon as the last step it waits
 * for has ended — from the durations the run reported. Snapshots carry durations, not start
 * times, and the engine has no concurrency limit across steps, so this is when they ran (a
 * step-through pause is the exception). Steps without a duration yet have no span; a skipped or
 * cancelled step takes none.
 */
export function spansOf(steps: Readonly<Record<string, StepState>>, deps: readonly Dependency[]): Record<string, Span> {
  const before = new Map<string, string[]>()
  for (const d of deps) before.set(d.target, [...(before.get(d.target) ?? []), d.source])
  const spans: Record<string, Span> = {}
  const visiting = new Set<string>()
  const spanOf = (id: string): Span | undefined => {
    if (Object.hasOwn(spans, id)) return spans[id]
    const state = steps[id]
    const took = passesThrough(state) ? 0 : state?.durationMs
    // A cycle cannot run; a graph drawn with one gets no spans through it.
    if (took === undefined || visiting.has(id)) return undefined
    visiting.add(id)
    const start = Math.max(0, ...(before.get(id) ?? []).map((p) => spanOf(p)?.end ?? 0))
    visiting.delete(id)
    spans[id] = { start, end: start + took }
    return spans[id]
  }
  for (const id of Object.keys(steps)) spanOf(id)
  return spans
}

/** Of `ids`, the one that ended last; ties go to the one that took longer, then to the first. */
function lastToEnd(ids: Iterable<string>, spans: Record<string, Span>): string | undefined {
  let best: string | undefined
  for (const id of ids) {
    const s = spans[id]
    if (!s) continue
    const b = best === undefined ? undefined : spans[best]
    if (!b || s.end > b.end || (s.end === b.end && s.end - s.start > b.end - b.start)) best = id
  }
  return best
}

/**
 * The critical path through `deps` given each step's span. Steps that took no time (skipped or
 * cancelled: `zeroTime`) are walked through but left out of the path.
 */
export function criticalPath(deps: readonly Dependency[], spans: Record<string, Span>, zeroTime: ReadonlySet<string> = new Set()): CriticalPath {
  const before = new Map<string, string[]>()
  for (const d of deps) before.set(d.target, [...(before.get(d.target) ?? []), d.source])
  const walked: string[] = []
  const seen = new Set<string>()
  for (let at = lastToEnd(Object.keys(spans), spans); at !== undefined && !seen.has(at); at = lastToEnd(before.get(at) ?? [], spans)) {
    seen.add(at)
    walked.unshift(at)
  }
  const path = walked.filter((id) => !zeroTime.has(id))
  // Links of the walk itself, so each is an edge of the graph (none into or out of a skipped step).
  const links = new Set<string>()
  for (let i = 1; i < walked.length; i++) {
    if (!zeroTime.has(walked[i - 1]) && !zeroTime.has(walked[i])) links.add(linkKey(walked[i - 1], walked[i]))
  }
  return path.length === 0 ? NO_PATH : { steps: path, links }
}

/** The critical path of a run's steps over a graph's edges. */
export function criticalPathOf(steps: Readonly<Record<string, StepState>>, edges: readonly GraphEdge[]): CriticalPath {
  const deps = dependencies(edges)
  const zeroTime = new Set(Object.keys(steps).filter((id) => passesThrough(steps[id])))
  return criticalPath(deps, spansOf(steps, deps), zeroTime)
}

const cache = new WeakMap<readonly GraphEdge[], { steps: Readonly<Record<string, StepState>>; path: CriticalPath }>()

/**
 * `criticalPathOf`, computed once per run state and graph: every node's selector asks it, and
 * all but the first get the same answer back.
 */
export function memoCriticalPath(steps: Readonly<Record<string, StepState>> | undefined, edges: readonly GraphEdge[] | undefined): CriticalPath {
  if (!steps || !edges) return NO_PATH
  const hit = cache.get(edges)
  if (hit?.steps === steps) return hit.path
  const path = criticalPathOf(steps, edges)
  cache.set(edges, { steps, path })
  return path
}
