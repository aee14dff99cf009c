//! Longest-path ranks for the layout: the inputs node at rank 0 and every node one rank right of
//! its furthest reference. Cycles (only in invalid workflows) are broken at DFS back edges.
export interface Link {
  source: string
  target: string
}

/**
 * Ranks `ids` so that every kept link goes right. Nodes with no incoming link hang off `root`
 * (when given), so the whole graph is connected through rank-1 ("tight") links.
 * Returns the ranks and the acyclic links actually ranked (including the added root links).
 */
export function longestPathRanks(ids: string[], links: Link[], root?: string): { rank: Map<string, number>; links: Link[] } {
  const known = new Set(ids)
  const out = new Map<string, string[]>(ids.map((id) => [id, []]))
  const seen = new Set<string>()
  for (const { source, target } of links) {
    const key = `${source}\u0000${target}`
    if (!known.has(source) || !known.has(target) || source === target || seen.has(key)) continue
    seen.add(key)
    out.get(source)!.push(target)
  }
  const acyclic = dropBackEdges(ids, out)
  if (root !== undefined && known.has(root)) {
    const hasIncoming = new Set(acyclic.map((l) => l.target))
    for (const id of ids) if (id !== root && !hasIncoming.has(id)) acyclic.push({ source: root, target: id })
  }
  const rank = new Map<string, number>(ids.map((id) => [id, 0]))
  const indegree = new Map<string, number>(ids.map((id) => [id, 0]))
  const next = new Map<string, string[]>(ids.map((id) => [id, []]))
  for (const l of acyclic) {
    indegree.set(l.target, indegree.get(l.target)! + 1)
    next.get(l.source)!.push(l.target)
  }
  const queue = ids.filter((id) => indegree.get(id) === 0)
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i]
    for (const v of next.get(u)!) {
      rank.set(v, Math.max(rank.get(v)!, rank.get(u)! + 1))
      indegree.set(v, indegree.get(v)! - 1)
      if (indegree.get(v) === 0) queue.push(v)
    }
  }
  return { rank, links: acyclic }
}

/** Iterative DFS in input order; links into a node still on the stack close a cycle and go. */
function dropBackEdges(ids: string[], out: Map<string, string[]>): Link[] {
  const state = new Map<string, 'open' | 'done'>()
  const kept: Link[] = []
  for (const start of ids) {
    if (state.has(start)) continue
    const stack: Array<{ id: string; i: number }> = [{ id: start, i: 0 }]
    state.set(start, 'open')
    while (stack.length > 0) {
      const top = stack[stack.length - 1]
      const targets = out.get(top.id)!
      if (top.i === targets.length) {
        state.set(top.id, 'done')
        stack.pop()
        continue
      }
      const target = targets[top.i++]
      const s = state.get(target)
      if (s === 'open') continue
      kept.push({ source: top.id, target })
      if (s === undefined) {
        state.set(target, 'open')
        stack.push({ id: target, i: 0 })
      }
    }
  }
  return kept
}
