// The playground API answered inside the page, for the editor benchmark (bench-editor.mjs):
// workflows, tools, draft plans with their graph, reference sites, renames, formatting and save.
// References are found with a simple pattern over `{{ root.path }}` templates — enough for the
// generated workflows the benchmark edits; the engine's parser is what the real server uses.
const TEMPLATE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)(\.[^}]*?)?\s*\}\}/g

export function bigWorkflow(layers = 20, width = 10) {
  const steps = []
  for (let l = 0; l < layers; l++) {
    for (let w = 0; w < width; w++) {
      const id = `s${l}_${w}`
      const text = l === 0 ? '{{ inputs.query }}' : `A {{ s${l - 1}_${w}.output.text }} B {{ s${l - 1}_${(w + 1) % width}.output.text }}`
      steps.push({ id, tool: 'template', inputs: { text } })
    }
  }
  return { name: 'Two hundred steps', inputs: { query: { type: 'string', required: true } }, steps, output: { last: `{{ s${layers - 1}_0.output.text }}` } }
}

export const tools = [
  {
    name: 'template',
    label: 'Template',
    category: 'utility',
    color: '#90A4AE',
    icon: 'TextSnippet',
    description: 'Render text',
    help: '',
    inputSchema: { type: 'object', properties: { text: { type: 'string', format: 'multiline' } }, required: ['text'] },
    outputs: [{ name: 'text', description: 'the text' }],
    mainInput: 'text',
    apiCalls: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 },
  },
  {
    name: 'query',
    label: 'Query',
    category: 'retrieval',
    color: '#40E0FF',
    icon: 'ManageSearch',
    description: 'Search and rerank',
    help: '',
    inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', default: 10 } }, required: ['query'] },
    outputs: [
      { name: 'results', description: 'hits' },
      { name: 'resultCount', description: 'n' },
    ],
    mainInput: 'query',
    apiCalls: { embed: 1, rerank: 1, vectorSearch: 1, llm: 0, http: 0 },
  },
  {
    name: 'merge',
    label: 'Merge',
    category: 'control_flow',
    color: '#90A4AE',
    icon: 'MergeType',
    description: 'Merge arrays',
    help: '',
    inputSchema: { type: 'object', properties: { arrays: { type: 'array', items: { type: 'array' } } }, required: ['arrays'] },
    outputs: [{ name: 'results', description: 'all' }],
    mainInput: 'arrays',
    apiCalls: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 },
  },
]
const categories = [
  { id: 'retrieval', label: 'Retrieval', color: '#40E0FF' },
  { id: 'control_flow', label: 'Control flow', color: '#90A4AE' },
  { id: 'utility', label: 'Utility', color: '#90A4AE' },
]

function walk(value, pointer, field, visit) {
  if (typeof value === 'string') visit(value, pointer, field)
  else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${pointer}/${i}`, `${field}[${i}]`, visit))
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${pointer}/${k}`, `${field}.${k}`, visit)
}

export function references(doc) {
  const ids = new Set(doc.steps.map((s) => s.id))
  const out = []
  const scan = (text, pointer, field, stepId) => {
    for (const m of text.matchAll(TEMPLATE)) {
      const root = m[1]
      const path = root + (m[2] ?? '').trim()
      const start = m.index + m[0].indexOf(root)
      out.push({
        pointer,
        stepId,
        field,
        kind: 'template',
        path,
        root,
        target: root === 'inputs' ? '__inputs' : ids.has(root) ? root : undefined,
        start,
        end: start + path.length,
        rootStart: start,
        rootEnd: start + root.length,
        templateStart: m.index,
        templateEnd: m.index + m[0].length,
        whole: m[0] === text.trim(),
      })
    }
  }
  doc.steps.forEach((s, i) => {
    walk(s.inputs ?? {}, `/steps/${i}/inputs`, 'inputs', (t, p, f) => scan(t, p, f, s.id))
    ;(s.dependsOn ?? []).forEach((d, j) =>
      out.push({
        pointer: `/steps/${i}/dependsOn/${j}`,
        stepId: s.id,
        field: `dependsOn[${j}]`,
        kind: 'id',
        path: d,
        root: d,
        target: d,
        start: 0,
        end: d.length,
        rootStart: 0,
        rootEnd: d.length,
        whole: true,
      }),
    )
  })
  if (doc.output && typeof doc.output === 'object') walk(doc.output, '/output', 'output', (t, p, f) => scan(t, p, f, undefined))
  return out.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)))
}

export function plan(doc) {
  const refs = references(doc)
  const nodes = [
    { kind: 'inputs', id: '__inputs', inputs: Object.entries(doc.inputs ?? {}).map(([name, d]) => ({ name, type: d.type, required: !!d.required })) },
  ]
  for (const s of doc.steps) {
    const t = tools.find((x) => x.name === s.tool)
    nodes.push({
      kind: 'step',
      id: s.id,
      name: s.name ?? s.id,
      tool: s.tool,
      category: t?.category ?? 'utility',
      color: t?.color ?? '#9E9E9E',
      icon: t?.icon ?? 'HelpOutline',
      continueOnError: false,
      summary: typeof s.inputs?.[t?.mainInput] === 'string' ? s.inputs[t.mainInput].slice(0, 80) : undefined,
    })
  }
  if (doc.output) nodes.push({ kind: 'output', id: '__output', fields: typeof doc.output === 'object' ? Object.keys(doc.output) : [] })
  const edges = []
  const seen = new Set()
  for (const r of refs) {
    if (!r.target) continue
    const target = r.stepId ?? '__output'
    const field = r.field.startsWith('dependsOn') ? 'dependsOn' : r.field
    const id = `${r.target}->${target}:${field}`
    if (seen.has(id)) continue
    seen.add(id)
    edges.push({
      id,
      source: r.target,
      target,
      kind: r.target === '__inputs' ? 'input' : target === '__output' ? 'output' : r.kind === 'id' ? 'depends_on' : 'reference',
      label: r.path,
      field,
    })
  }
  return {
    valid: true,
    diagnostics: [],
    graph: {
      name: doc.name,
      nodes,
      edges,
      layers: [],
      estimate: { fixed: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 }, perItem: { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 } },
      runnable: true,
    },
  }
}

export function rewrite(body) {
  const doc = structuredClone(body.definition)
  const renames = body.steps ?? {}
  const fix = (v) => {
    if (typeof v === 'string') {
      let out = v
      for (const [a, b] of Object.entries(renames)) out = out.replace(new RegExp(`\\{\\{(\\s*)${a}\\.`, 'g'), `{{$1${b}.`)
      return out
    }
    if (Array.isArray(v)) return v.map(fix)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fix(x)]))
    return v
  }
  doc.steps = doc.steps.map((s) => ({ ...fix(s), id: renames[s.id] ?? s.id, ...(s.dependsOn ? { dependsOn: s.dependsOn.map((d) => renames[d] ?? d) } : {}) }))
  if (doc.output) doc.output = fix(doc.output)
  if (doc.ui?.positions) doc.ui.positions = Object.fromEntries(Object.entries(doc.ui.positions).map(([k, v]) => [renames[k] ?? k, v]))
  return { definition: doc, changed: [] }
}

export function installMock(page, files) {
  const json = (route, body, status = 200) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) })
  return page.route('**/api/**', async (route) => {
    const req = route.request()
    const url = new URL(req.url())
    const p = decodeURIComponent(url.pathname)
    const body = req.postData() ? JSON.parse(req.postData()) : undefined
    if (p === '/api/workflows')
      return json(route, {
        workflows: Object.entries(files).map(([name, doc]) => ({
          id: `file:${name}`,
          name: doc.name,
          source: 'file',
          stepCount: doc.steps.length,
          inputs: Object.keys(doc.inputs ?? {}),
          readOnly: false,
        })),
      })
    if (p.startsWith('/api/workflows/file:')) {
      const name = p.slice('/api/workflows/file:'.length)
      const doc = files[name]
      return json(route, {
        summary: { id: `file:${name}`, name: doc.name, source: 'file', stepCount: doc.steps.length, inputs: [], readOnly: false },
        text: JSON.stringify(doc, null, 2),
        definition: doc,
        version: 'v1',
      })
    }
    if (p === '/api/workflows/plan') {
      if (body.text !== undefined) {
        try {
          return json(route, plan(JSON.parse(body.text)))
        } catch {
          return json(route, { valid: false, diagnostics: [{ severity: 'error', code: 'INVALID_JSON', message: 'bad', line: 1, column: 1 }] })
        }
      }
      return json(route, plan(body.definition))
    }
    if (p === '/api/workflows/references') return json(route, { references: references(body.definition) })
    if (p === '/api/workflows/rewrite') return json(route, rewrite(body))
    if (p === '/api/workflows/format') return json(route, { text: JSON.stringify(body.definition, null, 2) + '\n' })
    if (p === '/api/workflows/save')
      return json(route, {
        id: `file:${body.fileName}`,
        version: 'v2',
        summary: {
          id: `file:${body.fileName}`,
          name: body.definition.name,
          source: 'file',
          stepCount: body.definition.steps.length,
          inputs: [],
          readOnly: false,
        },
      })
    if (p === '/api/workflows/complete') return json(route, { from: 0, to: 0, items: [] })
    if (p === '/api/tools') return json(route, { tools, categories })
    if (p === '/api/config/status') return json(route, { offline: true, providers: [] })
    if (p === '/api/runs') return json(route, { runs: [] })
    return json(route, { error: { code: 'NOT_FOUND', message: p } }, 404)
  })
}
