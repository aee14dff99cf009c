//! A `router` step's `routes` as the routes editor shows them, as pure data: rows of id,
//! description and steps (and back), new routes' ids, and what is wrong with them — an id that is
//! empty, not id-shaped or taken twice, a step that names no step or the router itself, and a step
//! in two routes (only one route runs, so it could never run with both).
import { STEP_ID_PATTERN } from '../../api/rules'
import type { JsonValue } from '../../api/types'
import { isObject, uniqueName } from './objects'

export interface RouteRow {
  id: string
  description: string
  steps: string[]
  /** The route's other keys, kept as they were. */
  extra: { [key: string]: JsonValue }
}

/** The rows of a `routes` value (an array of `{id, description, steps}`), in its order. */
export function routeRows(value: JsonValue | undefined): RouteRow[] {
  if (!Array.isArray(value)) return []
  return value.map((route) => {
    const { id, description, steps, ...extra } = isObject(route) ? route : {}
    return {
      id: typeof id === 'string' ? id : '',
      description: typeof description === 'string' ? description : '',
      steps: Array.isArray(steps) ? steps.filter((s): s is string => typeof s === 'string') : [],
      extra,
    }
  })
}

/** The `routes` value written from the rows: every row, as typed, so validation sees it too. */
export function routesOf(rows: readonly RouteRow[]): JsonValue[] {
  return rows.map((row) => ({ id: row.id, description: row.description, steps: row.steps, ...row.extra }))
}

/** A route for the "Add route" button: the first free `route_<n>`, nothing else filled in. */
export function newRoute(rows: readonly RouteRow[]): RouteRow {
  return {
    id: uniqueName(
      'route',
      rows.map((r) => r.id),
    ),
    description: '',
    steps: [],
    extra: {},
  }
}

/** What is wrong with one route: its id, and each of its steps that has a problem. */
export interface RouteProblems {
  id?: string
  steps: { [stepId: string]: string }
}

/**
 * The problems of each row: `stepIds` are the workflow's steps, `self` the router's own id.
 * A step in two routes is reported in both, naming the other.
 */
export function routeProblems(rows: readonly RouteRow[], stepIds: readonly string[], self?: string): RouteProblems[] {
  const known = new Set(stepIds)
  const idCount = new Map<string, number>()
  for (const row of rows) idCount.set(row.id, (idCount.get(row.id) ?? 0) + 1)
  return rows.map((row, i) => {
    const id =
      row.id === ''
        ? 'A route needs an id'
        : !STEP_ID_PATTERN.test(row.id)
          ? 'Letters, digits and _, not starting with a digit'
          : (idCount.get(row.id) ?? 0) > 1
            ? `Another route is also called ${row.id}`
            : undefined
    const steps: RouteProblems['steps'] = {}
    for (const step of row.steps) {
      const elsewhere = rows.findIndex((other, j) => j !== i && other.steps.includes(step))
      if (step === self) steps[step] = 'A router cannot route to itself'
      else if (!known.has(step)) steps[step] = `There is no step ${step}`
      else if (elsewhere >= 0) steps[step] = `${step} is also in route ${rows[elsewhere].id || elsewhere + 1}: a step may be in one route only`
    }
    return id === undefined ? { steps } : { id, steps }
  })
}

/** Whether any row has a problem (the editor marks the field as an error). */
export function hasRouteProblems(problems: readonly RouteProblems[]): boolean {
  return problems.some((p) => p.id !== undefined || Object.keys(p.steps).length > 0)
}
