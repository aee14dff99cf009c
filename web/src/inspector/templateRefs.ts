//! Finds step and input references inside `{{ … }}` templates, just enough to highlight them
//! and make them clickable. The server owns the real parser and validation.

export type TemplatePart =
  | { kind: 'text'; text: string }
  /** Template syntax that is not a reference (braces, operators, literals). */
  | { kind: 'expr'; text: string }
  /** A reference path such as `search.output.results`; `target` is the node id to select. */
  | { kind: 'ref'; text: string; target: string }

export const INPUTS_NODE = '__inputs'

const IDENT_START = /[A-Za-z_$]/
const IDENT = /[A-Za-z0-9_$]/

/** Where a path whose first segments are `first`/`second` points, if anywhere. */
function targetOf(first: string, second: string | undefined, stepIds: ReadonlySet<string>): string | undefined {
  if (first === 'inputs' || first === 'defaults') return first === 'inputs' ? INPUTS_NODE : undefined
  if (first === 'steps' && second !== undefined && stepIds.has(second)) return second
  if (stepIds.has(first)) return first
  return undefined
}

/** Reads a dotted/indexed path starting at `start`; returns its end and its dot segments. */
function readPath(expr: string, start: number): { end: number; segments: string[] } {
  const segments: string[] = []
  let i = start
  for (;;) {
    let j = i
    while (j < expr.length && IDENT.test(expr[j])) j++
    segments.push(expr.slice(i, j))
    i = j
    if (expr[i] === '[') {
      const close = expr.indexOf(']', i)
      if (close < 0) break
      i = close + 1
      if (expr[i] !== '.' && expr[i] !== '[') break
    }
    if (expr[i] === '.' && i + 1 < expr.length && IDENT.test(expr[i + 1])) {
      i += 1
      continue
    }
    if (expr[i] === '[') continue
    break
  }
  return { end: i, segments }
}

function splitExpression(expr: string, stepIds: ReadonlySet<string>, out: TemplatePart[]): void {
  let plain = ''
  let i = 0
  const flush = () => {
    if (plain) out.push({ kind: 'expr', text: plain })
    plain = ''
  }
  while (i < expr.length) {
    const c = expr[i]
    if (c === '"' || c === "'") {
      let j = i + 1
      while (j < expr.length && expr[j] !== c) j += expr[j] === '\\' ? 2 : 1
      plain += expr.slice(i, j + 1)
      i = j + 1
      continue
    }
    const prev = expr.slice(0, i).trimEnd().at(-1)
    if (IDENT_START.test(c) && prev !== '.' && !(i > 0 && IDENT.test(expr[i - 1]))) {
      const { end, segments } = readPath(expr, i)
      const target = targetOf(segments[0], segments[1], stepIds)
      if (target !== undefined) {
        flush()
        out.push({ kind: 'ref', text: expr.slice(i, end), target })
      } else plain += expr.slice(i, end)
      i = end
      continue
    }
    plain += c
    i += 1
  }
  flush()
}

/** Splits a configured string value into text, template syntax and references. */
export function splitTemplate(value: string, stepIds: ReadonlySet<string>): TemplatePart[] {
  const parts: TemplatePart[] = []
  let i = 0
  while (i < value.length) {
    const open = value.indexOf('{{', i)
    if (open < 0) break
    const close = value.indexOf('}}', open + 2)
    if (close < 0) break
    if (open > i) parts.push({ kind: 'text', text: value.slice(i, open) })
    parts.push({ kind: 'expr', text: '{{' })
    splitExpression(value.slice(open + 2, close), stepIds, parts)
    parts.push({ kind: 'expr', text: '}}' })
    i = close + 2
  }
  if (i < value.length) parts.push({ kind: 'text', text: value.slice(i) })
  return mergeAdjacent(parts)
}

function mergeAdjacent(parts: TemplatePart[]): TemplatePart[] {
  const merged: TemplatePart[] = []
  for (const part of parts) {
    const last = merged.at(-1)
    if (last && last.kind === part.kind && part.kind !== 'ref') last.text += part.text
    else merged.push({ ...part })
  }
  return merged
}

/** The distinct node ids a value references. */
export function referencedNodes(value: string, stepIds: ReadonlySet<string>): string[] {
  const ids = splitTemplate(value, stepIds).flatMap((p) => (p.kind === 'ref' ? [p.target] : []))
  return [...new Set(ids)]
}

export function hasTemplate(value: string): boolean {
  return /\{\{[\s\S]*?\}\}/.test(value)
}
