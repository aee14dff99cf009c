//! Tools and documents for the editor's tests, shaped like the server's catalog and files.
import type { ReferenceSite, ToolView, Workflow } from '../../api/types'

const calls = { embed: 0, rerank: 0, vectorSearch: 0, llm: 0, http: 0 }

function tool(
  name: string,
  category: ToolView['category'],
  icon: string,
  schema: Partial<ToolView['inputSchema']>,
  outputs: string[],
  mainInput?: string,
): ToolView {
  return {
    name,
    label: name[0].toUpperCase() + name.slice(1),
    category,
    color: category === 'retrieval' ? '#40E0FF' : '#90A4AE',
    icon,
    description: `The ${name} tool`,
    help: '',
    inputSchema: { type: 'object', properties: {}, required: [], ...schema },
    outputs: outputs.map((o) => ({ name: o, description: o })),
    mainInput,
    apiCalls: calls,
  }
}

export const tools: Record<string, ToolView> = {
  query: tool(
    'query',
    'retrieval',
    'ManageSearch',
    {
      properties: {
        query: { type: 'string', description: 'What to search for' },
        collection: { type: 'string' },
        limit: { type: 'integer', default: 10 },
        rerank: { type: 'boolean', default: true },
      },
      required: ['query'],
    },
    ['results', 'resultCount'],
    'query',
  ),
  merge: tool(
    'merge',
    'control_flow',
    'MergeType',
    { properties: { arrays: { type: 'array', items: { type: 'array' } }, dedup: { type: 'boolean', default: false } }, required: ['arrays'] },
    ['results', 'resultCount'],
    'arrays',
  ),
  filter: tool(
    'filter',
    'utility',
    'FilterAlt',
    { properties: { array: { type: 'array', items: {} }, condition: { type: 'string', format: 'expression' } }, required: ['array', 'condition'] },
    ['results'],
  ),
  template: tool('template', 'utility', 'TextSnippet', { properties: { text: { type: 'string', format: 'multiline' } }, required: ['text'] }, ['text'], 'text'),
  conditional: tool(
    'conditional',
    'control_flow',
    'CallSplit',
    {
      properties: {
        condition: { type: ['string', 'boolean'], format: 'expression' },
        then: { type: 'array', items: { type: 'string' }, format: 'step-ids' },
        else: { type: 'array', items: { type: 'string' }, format: 'step-ids' },
      },
      required: ['condition', 'then'],
    },
    ['conditionResult', 'branchTaken'],
    'condition',
  ),
  chunk: tool(
    'chunk',
    'utility',
    'ContentCut',
    {
      properties: { text: { type: 'string' }, strategy: { type: 'string', default: 'recursive' }, size: { type: 'integer', default: 512 } },
      required: ['text', 'strategy'],
    },
    ['chunks'],
  ),
}

/** A router, apart from `tools` (whose categories the palette's tests list): `{ ...tools, router }`. */
export const router: ToolView = tool(
  'router',
  'generation',
  'AltRoute',
  {
    properties: {
      input: { type: 'string', format: 'multiline' },
      routes: { type: 'array', items: { type: 'object' }, format: 'routes' },
      fallback: { type: 'string' },
    },
    required: ['input', 'routes'],
  },
  ['route', 'reason'],
  'input',
)

/** inputs.query → a, b (query) → m (merge) → output; a template step t reads a and inputs. */
export function searchDoc(): Workflow {
  return {
    $schema: 'https://vai.dev/schemas/workflow-v1.json',
    name: 'Two searches',
    inputs: { query: { type: 'string', required: true } },
    steps: [
      { id: 'a', tool: 'query', inputs: { query: '{{ inputs.query }}', collection: 'one' } },
      { id: 'b', tool: 'query', inputs: { query: '{{ inputs.query }}', collection: 'two' }, dependsOn: ['a'] },
      { id: 'm', tool: 'merge', inputs: { arrays: ['{{ a.output.results }}', '{{ b.output.results }}'], dedup: true } },
      { id: 't', tool: 'template', inputs: { text: 'Found {{ a.output.resultCount }} for {{ inputs.query }}' }, condition: '{{ a.output.resultCount > 0 }}' },
    ],
    output: { results: '{{ m.output.results }}', first: '{{ a.output.results }}' },
    branding: { icon: 'x' },
  }
}

function site(pointer: string, field: string, path: string, value: string, extra: Partial<ReferenceSite> = {}): ReferenceSite {
  const root = path.split('.')[0]
  const start = value.indexOf(path)
  const open = value.lastIndexOf('{{', start)
  const close = value.indexOf('}}', start) + 2
  const stepIndex = /^\/steps\/(\d+)/.exec(pointer)?.[1]
  const stepId = stepIndex === undefined ? undefined : searchDoc().steps[Number(stepIndex)].id
  return {
    pointer,
    stepId,
    field,
    kind: 'template',
    path,
    root,
    target: root === 'inputs' ? '__inputs' : root,
    start,
    end: start + path.length,
    rootStart: start,
    rootEnd: start + root.length,
    templateStart: open,
    templateEnd: close,
    whole: open === 0 && close === value.length,
    ...extra,
  }
}

/** The reference index of searchDoc(), as the server's /references route answers it. */
export function searchSites(): ReferenceSite[] {
  const text = 'Found {{ a.output.resultCount }} for {{ inputs.query }}'
  return [
    site('/steps/0/inputs/query', 'inputs.query', 'inputs.query', '{{ inputs.query }}'),
    site('/steps/1/inputs/query', 'inputs.query', 'inputs.query', '{{ inputs.query }}'),
    { ...site('/steps/1/dependsOn/0', 'dependsOn[0]', 'a', 'a'), kind: 'id', templateStart: undefined, templateEnd: undefined, start: 0, end: 1, whole: true },
    site('/steps/2/inputs/arrays/0', 'inputs.arrays[0]', 'a.output.results', '{{ a.output.results }}'),
    site('/steps/2/inputs/arrays/1', 'inputs.arrays[1]', 'b.output.results', '{{ b.output.results }}'),
    site('/steps/3/inputs/text', 'inputs.text', 'a.output.resultCount', text),
    site('/steps/3/inputs/text', 'inputs.text', 'inputs.query', text),
    { ...site('/steps/3/condition', 'condition', 'a.output.resultCount', '{{ a.output.resultCount > 0 }}'), whole: true },
    site('/output/results', 'output.results', 'm.output.results', '{{ m.output.results }}'),
    site('/output/first', 'output.first', 'a.output.results', '{{ a.output.results }}'),
  ]
}
