//! Removing references, located by the server's reference index (the engine's own parser):
//! a reference that is the whole value goes with its key or array element; one embedded in a
//! longer string loses just its `{{ … }}`. A reference inside a larger expression
//! (`{{ a.output.n > 0 }}`, a bare condition) is not cut out — that would change logic the
//! person wrote — and is reported instead, so they can edit the field.
import type { GraphEdge, ReferenceSite, Workflow } from '../../api/types'
import { isObject } from './json'
import { removePositions } from './layout'
import { OUTPUT_NODE } from './model'
import { comparePointersDescending, getAt, parsePointer, REMOVE, updateAt } from './pointer'

export interface Removal {
  doc: Workflow
  /** References that could not be removed on their own, with why. */
  kept: { site: ReferenceSite; reason: string }[]
}

/** Keys that are dropped, not kept empty, when their last element goes. */
const DROP_WHEN_EMPTY = new Set(['dependsOn'])

/** The sites an edge of the planned graph stands for (one edge per source, target and field). */
export function sitesOfEdge(edge: Pick<GraphEdge, 'source' | 'target' | 'kind' | 'field'>, sites: ReferenceSite[]): ReferenceSite[] {
  const inField = (s: ReferenceSite) => s.field === edge.field || s.field.startsWith(`${edge.field}[`)
  if (edge.kind === 'then' || edge.kind === 'else' || edge.kind === 'route') {
    // A branch lives in the conditional (a route in the router: the edge's source) and names the step it runs.
    return sites.filter((s) => s.stepId === edge.source && s.target === edge.target && inField(s))
  }
  const holder = (s: ReferenceSite) => (edge.target === OUTPUT_NODE ? s.stepId === undefined : s.stepId === edge.target)
  return sites.filter((s) => holder(s) && s.target === edge.source && inField(s))
}

/** Why `site` cannot be removed on its own from `value`, or undefined when it can. */
function blocker(site: ReferenceSite, value: unknown): string | undefined {
  if (typeof value !== 'string') return 'the value changed since it was indexed'
  if (site.kind === 'id') return undefined
  if (site.kind === 'expression') return `it is part of the expression in ${site.field}`
  if (site.templateStart === undefined || site.templateEnd === undefined) return 'its template could not be located'
  const inner = value.slice(site.templateStart + 2, site.templateEnd - 2).trim()
  if (inner !== value.slice(site.start, site.end)) return `it is part of the expression ${value.slice(site.templateStart, site.templateEnd)} in ${site.field}`
  return undefined
}

function removeSite(doc: Workflow, site: ReferenceSite, segments: string[]): Workflow {
  if (site.kind === 'id' || site.whole) {
    const parent = getAt(doc, segments.slice(0, -1))
    const next = updateAt(doc, segments, () => REMOVE)
    const key = segments.at(-2)
    if (Array.isArray(parent) && parent.length === 1 && key !== undefined && DROP_WHEN_EMPTY.has(key)) {
      return updateAt(doc, segments.slice(0, -1), () => REMOVE)
    }
    return next
  }
  return updateAt(doc, segments, (value) => {
    const text = value as string
    const rest = text.slice(0, site.templateStart) + text.slice(site.templateEnd)
    return rest.trim() === '' ? REMOVE : rest
  })
}

/**
 * `doc` without the references `sites` (all from the index of this very document). Sites are
 * removed from the end backwards, so earlier pointers and offsets stay valid.
 */
export function removeReferences(doc: Workflow, sites: ReferenceSite[]): Removal {
  const ordered = [...sites].sort((a, b) => comparePointersDescending(a.pointer, b.pointer) || b.start - a.start)
  const kept: Removal['kept'] = []
  let next = doc
  for (const site of ordered) {
    const segments = parsePointer(site.pointer)
    const reason = blocker(site, getAt(next, segments))
    if (reason) kept.push({ site, reason })
    else next = removeSite(next, site, segments)
  }
  return { doc: next, kept }
}

/**
 * `doc` without steps `ids`, their positions, and the references other steps and the output
 * mapping hold to them (`sites`: the index of `doc`). Deleting a step also deletes the wires
 * into it, as a person deleting a node on a canvas expects; references that cannot be cut out
 * alone stay, and validation flags them.
 */
export function deleteSteps(doc: Workflow, ids: ReadonlySet<string>, sites: ReferenceSite[]): Removal {
  const doomed = sites.filter((s) => s.target !== undefined && ids.has(s.target) && !(s.stepId !== undefined && ids.has(s.stepId)))
  const { doc: unwired, kept } = removeReferences(doc, doomed)
  const steps = unwired.steps.filter((s) => !(isObject(s) && typeof s.id === 'string' && ids.has(s.id)))
  const without = steps.length === unwired.steps.length ? unwired : { ...unwired, steps }
  return { doc: removePositions(without, ids), kept }
}
