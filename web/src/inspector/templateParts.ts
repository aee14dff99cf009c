//! Splits a configured string into plain text, template syntax and clickable references, from
//! the engine's reference index (`POST /api/workflows/references`). Nothing here parses
//! templates: the sites say where each reference is written and what it points at.
import type { ReferenceSite } from '../api/types'

export type TemplatePart =
  | { kind: 'text'; text: string }
  /** Template syntax that is not a reference to a node (braces, operators, literals, locals). */
  | { kind: 'expr'; text: string }
  /** A reference such as `search.output.results`; `target` is the node id to select. */
  | { kind: 'ref'; text: string; target: string }

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
function escapeSegment(segment: string | number): string {
  return String(segment).replaceAll('~', '~0').replaceAll('/', '~1')
}

/** The pointer of a child of `base` (`/steps/2` + `inputs` → `/steps/2/inputs`). */
export function childPointer(base: string, key: string | number): string {
  return `${base}/${escapeSegment(key)}`
}

/** Splits `value` (the string at the sites' pointer) into parts. */
export function splitTemplate(value: string, sites: readonly ReferenceSite[]): TemplatePart[] {
  const fits = (from: number | undefined, to: number | undefined): boolean =>
    from !== undefined && to !== undefined && 0 <= from && from <= to && to <= value.length
  const templates = sites.filter((s) => fits(s.templateStart, s.templateEnd)).map((s) => [s.templateStart ?? 0, s.templateEnd ?? 0])
  const refs = sites.filter((s) => s.target !== undefined && fits(s.start, s.end)).sort((a, b) => a.start - b.start)
  const parts: TemplatePart[] = []
  const plain = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const kind = templates.some(([s, e]) => i >= s && i < e) ? 'expr' : 'text'
      const last = parts.at(-1)
      if (last && last.kind === kind) last.text += value[i]
      else parts.push({ kind, text: value[i] })
    }
  }
  let at = 0
  for (const ref of refs) {
    if (ref.start < at) continue // overlapping sites: the first wins
    plain(at, ref.start)
    parts.push({ kind: 'ref', text: value.slice(ref.start, ref.end), target: ref.target ?? '' })
    at = ref.end
  }
  plain(at, value.length)
  return parts
}
