//! Graphs for the canvas tests (and for trying the canvas at scale).
import type { Category, EdgeKind, GraphEdge, GraphNode, GraphView } from '../api/types'

type Step = Extract<GraphNode, { kind: 'step' }>

function step(id: string, tool: string, category: Category, extra: Partial<Step> = {}): Step {
  return {
    kind: 'step',
    id,
    name: id,
    tool,
    category,
    color: '#40E0FF',
    icon: 'Search',
    continueOnError: false,
    summary: `{{ inputs.query }}`,
    ...extra,
  }
}

function edge(source: string, target: string, kind: EdgeKind, label: string, field: string): GraphEdge {
  return { id: `${source}->${target}:${field}`, source, target, kind, label, field }
}

/** inputs → search → check (conditional) → answer (then) / fallback (else) → output; a dependsOn. */
export function branchingGraph(): GraphView {
  return {
    name: 'branching',
    nodes: [
      {
        kind: 'inputs',
        id: '__inputs',
        inputs: [
          { name: 'query', type: 'string', required: true },
          { name: 'limit', type: 'number', required: false, default: 5 },
        ],
      },
      step('search', 'search', 'retrieval'),
      step('check', 'conditional', 'control_flow', { color: '#90A4AE', icon: 'CallSplit' }),
      step('answer', 'generate', 'generation', { color: '#69F0AE', icon: 'AutoAwesome', condition: '{{ check.output.branch == "then" }}' }),
      step('fallback', 'http', 'integration', { color: '#F5A623', icon: 'Http', forEach: '{{ search.output.results }}' }),
      step('log', 'template', 'control_flow', { color: '#90A4AE', icon: 'NoSuchIcon' }),
      { kind: 'output', id: '__output', fields: ['answer'] },
    ],
    edges: [
      edge('__inputs', 'search', 'input', 'inputs.query', 'inputs.query'),
      edge('search', 'check', 'reference', 'search.output.results', 'inputs.condition'),
      edge('check', 'answer', 'then', 'check', 'then'),
      edge('check', 'fallback', 'else', 'check', 'else'),
      edge('answer', 'log', 'depends_on', 'answer', 'dependsOn'),
      edge('answer', '__output', 'output', 'answer.output.text', 'output.answer'),
    ],
    layers: [['search'], ['check'], ['answer', 'fallback'], ['log']],
    estimate: { fixed: { embed: 1, rerank: 0, vectorSearch: 1, llm: 1, http: 1 }, perItem: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 } },
    runnable: true,
  }
}

/** inputs → pick (router) → refund (route billing) / debug, explain (route technical) → output. */
export function routerGraph(): GraphView {
  return {
    name: 'routing',
    nodes: [
      { kind: 'inputs', id: '__inputs', inputs: [{ name: 'ticket', type: 'string', required: true }] },
      step('pick', 'router', 'generation', { color: '#69F0AE', icon: 'AltRoute' }),
      step('refund', 'template', 'utility', { color: '#90A4AE', icon: 'TextSnippet' }),
      step('debug', 'template', 'utility', { color: '#90A4AE', icon: 'TextSnippet' }),
      step('explain', 'template', 'utility', { color: '#90A4AE', icon: 'TextSnippet' }),
      { kind: 'output', id: '__output', fields: ['route'] },
    ],
    edges: [
      edge('__inputs', 'pick', 'input', 'inputs.ticket', 'inputs.input'),
      edge('pick', 'refund', 'route', 'billing', 'inputs.routes[0].steps'),
      edge('pick', 'debug', 'route', 'technical', 'inputs.routes[1].steps'),
      edge('pick', 'explain', 'route', 'technical', 'inputs.routes[1].steps'),
      edge('pick', '__output', 'output', 'pick.output.route', 'output.route'),
    ],
    layers: [['pick'], ['refund', 'debug', 'explain']],
    estimate: { fixed: { embed: 1, rerank: 0, vectorSearch: 0, llm: 0, http: 0 }, perItem: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 } },
    runnable: true,
  }
}

/** A wide and deep synthetic workflow: `count` steps, each referencing up to two earlier ones. */
export function largeGraph(count: number): GraphView {
  const nodes: GraphNode[] = [{ kind: 'inputs', id: '__inputs', inputs: [{ name: 'query', type: 'string', required: true }] }]
  const edges: GraphEdge[] = []
  const layers: string[][] = []
  const layerOf = new Map<string, number>()
  for (let i = 0; i < count; i++) {
    const id = `s${i}`
    const parents = i < 8 ? [] : [`s${(i * 7) % i}`, `s${i - 1 - (i % 5)}`]
    const unique = [...new Set(parents)]
    const layer = unique.length === 0 ? 0 : Math.max(...unique.map((p) => layerOf.get(p)!)) + 1
    layerOf.set(id, layer)
    ;(layers[layer] ??= []).push(id)
    nodes.push(step(id, 'search', 'retrieval'))
    if (unique.length === 0) edges.push(edge('__inputs', id, 'input', 'inputs.query', 'inputs.query'))
    for (const p of unique) edges.push(edge(p, id, 'reference', `${p}.output.results`, 'inputs.documents'))
  }
  nodes.push({ kind: 'output', id: '__output', fields: ['last'] })
  edges.push(edge(`s${count - 1}`, '__output', 'output', `s${count - 1}.output`, 'output.last'))
  return {
    name: 'large',
    nodes,
    edges,
    layers,
    estimate: { fixed: { embed: 0, rerank: 0, vectorSearch: count, llm: 0, http: 0 }, perItem: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 } },
    runnable: true,
  }
}

/**
 * A chain of `count` steps, each reading the one before; every third also reads `inputs.query`
 * (long edges from the inputs node, as real workflows have), and the output reads the last
 * step and the query.
 */
export function chainGraph(count: number): GraphView {
  const nodes: GraphNode[] = [{ kind: 'inputs', id: '__inputs', inputs: [{ name: 'query', type: 'string', required: true }] }]
  const edges: GraphEdge[] = []
  for (let i = 0; i < count; i++) {
    const id = `c${i}`
    nodes.push(step(id, 'template', 'utility'))
    if (i === 0 || i % 3 === 2) edges.push(edge('__inputs', id, 'input', 'inputs.query', 'inputs.query'))
    if (i > 0) edges.push(edge(`c${i - 1}`, id, 'reference', `c${i - 1}.output.text`, 'inputs.text'))
  }
  nodes.push({ kind: 'output', id: '__output', fields: ['text', 'query'] })
  edges.push(edge(`c${count - 1}`, '__output', 'output', `c${count - 1}.output.text`, 'output.text'))
  edges.push(edge('__inputs', '__output', 'output', 'inputs.query', 'output.query'))
  return {
    name: 'chain',
    nodes,
    edges,
    layers: Array.from({ length: count }, (_, i) => [`c${i}`]),
    estimate: { fixed: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 }, perItem: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 } },
    runnable: true,
  }
}
