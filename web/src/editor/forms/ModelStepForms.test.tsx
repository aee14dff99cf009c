import { fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { Diagnostic, Step, ToolView } from '../../api/types'
import { toolView } from '../../test/toolView'
import type { ToolChoice } from './agentTools'
import StepForm from './StepForm'
import { silentCompleter } from './testFixtures'

// Shaped as the engine declares them (server/tools/src): the forms pick their editors by `format`.
const routerTool = toolView('router', {
  category: 'generation',
  inputSchema: {
    type: 'object',
    properties: {
      input: { type: 'string', format: 'multiline' },
      routes: { type: 'array', items: { type: 'object' }, format: 'routes', description: 'The routes to choose from' },
      fallback: { type: 'string' },
    },
    required: ['input', 'routes'],
  },
})
const evaluatorTool = toolView('evaluator', {
  category: 'generation',
  inputSchema: {
    type: 'object',
    properties: { content: { type: 'string', format: 'multiline' }, metrics: { type: 'array', items: { type: 'object' }, format: 'metrics' } },
    required: ['content', 'metrics'],
  },
})
const agentTool = toolView('agent', {
  category: 'generation',
  inputSchema: {
    type: 'object',
    properties: { prompt: { type: 'string', format: 'multiline' }, tools: { type: 'array', items: { type: 'string' }, format: 'tool-names' } },
    required: ['prompt'],
  },
})
const agentTools: ToolChoice[] = [
  { value: 'query', label: 'query', group: 'vai tools' },
  { value: 'search', label: 'search', group: 'vai tools' },
  { value: 'rag-chat', label: 'RAG chat (rag-chat)', group: 'Workflows' },
]

/** The form around a state holder, as the editor renders it; the last step it wrote. */
function renderForm(step: Step, tool: ToolView, stepIds = [step.id], diagnostics: Diagnostic[] = []) {
  let last: Step | undefined
  function Harness() {
    const [current, setCurrent] = useState(step)
    return (
      <StepForm
        step={current}
        tool={tool}
        stepIds={stepIds}
        inputNames={[]}
        diagnostics={diagnostics}
        onChange={(next) => {
          last = next
          setCurrent(next)
        }}
        onRename={async () => undefined}
        complete={silentCompleter}
        agentTools={agentTools}
      />
    )
  }
  render(<Harness />)
  return () => last
}

vi.setConfig({ testTimeout: 30_000 })

const choose = (combobox: HTMLElement, option: string) => {
  fireEvent.mouseDown(combobox)
  fireEvent.click(screen.getByRole('option', { name: option }))
}

describe('the routes editor', () => {
  it('adds a route with an id, a description and steps of the workflow', () => {
    const last = renderForm({ id: 'pick', tool: 'router', inputs: { input: 'x', routes: [] } }, routerTool, ['pick', 'refund', 'debug'])
    fireEvent.click(screen.getByRole('button', { name: 'Add route' }))
    const route = within(screen.getByRole('group', { name: 'Route route_1' }))
    fireEvent.change(route.getByRole('textbox', { name: /Route id/ }), { target: { value: 'billing' } })
    const billing = within(screen.getByRole('group', { name: 'Route billing' }))
    fireEvent.change(billing.getByRole('textbox', { name: 'Description' }), { target: { value: 'Invoices and refunds' } })
    // The router itself is not offered.
    fireEvent.mouseDown(billing.getByRole('combobox', { name: 'Steps' }))
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['refund', 'debug'])
    fireEvent.click(screen.getByRole('option', { name: 'refund' }))
    expect(last()?.inputs.routes).toEqual([{ id: 'billing', description: 'Invoices and refunds', steps: ['refund'] }])
  })

  it('shows a step in two routes and a taken id where they are', () => {
    const routes = [
      { id: 'billing', description: '', steps: ['refund'] },
      { id: 'technical', description: '', steps: ['debug'] },
    ]
    renderForm({ id: 'pick', tool: 'router', inputs: { input: 'x', routes } }, routerTool, ['pick', 'refund', 'debug'])
    const technical = within(screen.getByRole('group', { name: 'Route technical' }))
    choose(technical.getByRole('combobox', { name: 'Steps' }), 'refund')
    expect(screen.getAllByText('refund is also in route technical: a step may be in one route only')).toHaveLength(1)
    expect(screen.getAllByText('refund is also in route billing: a step may be in one route only')).toHaveLength(1)
    fireEvent.change(technical.getByRole('textbox', { name: /Route id/ }), { target: { value: 'billing' } })
    expect(screen.getAllByText('Another route is also called billing')).toHaveLength(2)
  })

  it('removes a route', () => {
    const routes = [
      { id: 'a', description: '', steps: [] },
      { id: 'b', description: '', steps: [] },
    ]
    const last = renderForm({ id: 'pick', tool: 'router', inputs: { input: 'x', routes } }, routerTool)
    fireEvent.click(screen.getByRole('button', { name: 'Remove route a' }))
    expect(last()?.inputs.routes).toEqual([{ id: 'b', description: '', steps: [] }])
  })
})

describe('the metrics editor', () => {
  it('adds a metric with the default range, and writes what is typed', () => {
    const last = renderForm({ id: 'judge', tool: 'evaluator', inputs: { content: 'x', metrics: [] } }, evaluatorTool)
    fireEvent.click(screen.getByRole('button', { name: 'Add metric' }))
    expect(last()?.inputs.metrics).toEqual([{ name: 'quality', range: { min: 1, max: 5 } }])
    const metric = within(screen.getByRole('group', { name: 'Metric quality' }))
    fireEvent.change(metric.getByRole('textbox', { name: /Metric name/ }), { target: { value: 'grounded' } })
    fireEvent.change(metric.getByRole('textbox', { name: 'Max' }), { target: { value: '10' } })
    expect(last()?.inputs.metrics).toEqual([{ name: 'grounded', range: { min: 1, max: 10 } }])
  })

  it('flags min above max and a duplicate name inline, and keeps a bound being typed', () => {
    const metrics = [
      { name: 'a', range: { min: 1, max: 5 } },
      { name: 'b', range: { min: 1, max: 5 } },
    ]
    const last = renderForm({ id: 'judge', tool: 'evaluator', inputs: { content: 'x', metrics } }, evaluatorTool)
    const a = within(screen.getByRole('group', { name: 'Metric a' }))
    fireEvent.change(a.getByRole('textbox', { name: 'Min' }), { target: { value: '6' } })
    expect(screen.getByText('min 6 is more than max 5')).toBeTruthy()
    fireEvent.change(a.getByRole('textbox', { name: 'Min' }), { target: { value: '-' } })
    expect(a.getByRole('textbox', { name: 'Min' })).toHaveProperty('value', '-')
    expect(last()?.inputs.metrics).toEqual([
      { name: 'a', range: { max: 5 } },
      { name: 'b', range: { min: 1, max: 5 } },
    ])
    const b = within(screen.getByRole('group', { name: 'Metric b' }))
    fireEvent.change(b.getByRole('textbox', { name: /Metric name/ }), { target: { value: 'a' } })
    expect(screen.getAllByText(/"a" is listed twice/)).toHaveLength(2)
  })

  it("says a problem once when the validator finds what the form flags, and shows the validator's others", () => {
    const metrics = [{ name: 'grounded', range: { min: 11, max: 10 } }]
    const found = (message: string): Diagnostic => ({ severity: 'error', code: 'INVALID_INPUT', message, stepId: 'judge', field: 'inputs.metrics[0].range' })
    const diagnostics = [found('evaluator: input "metrics[0].range" min 11 is more than max 10'), found('evaluator: input "metrics[0].range" is out of bounds')]
    renderForm({ id: 'judge', tool: 'evaluator', inputs: { content: 'x', metrics } }, evaluatorTool, ['judge'], diagnostics)
    const metric = within(screen.getByRole('group', { name: 'Metric grounded' }))
    expect(metric.getAllByText(/min 11 is more than max 10/)).toHaveLength(1)
    expect(metric.getByText(/is out of bounds/)).toBeTruthy()
  })
})

describe('the tools picker', () => {
  it('offers vai tools and workflows, grouped, and keeps a name that is neither as unknown', () => {
    const last = renderForm({ id: 'helper', tool: 'agent', inputs: { prompt: 'x' } }, agentTool)
    const field = screen.getByRole('combobox', { name: 'tools' })
    fireEvent.mouseDown(field)
    expect(screen.getByText('vai tools')).toBeTruthy()
    expect(screen.getByText('Workflows')).toBeTruthy()
    fireEvent.click(screen.getByRole('option', { name: 'query' }))
    choose(field, 'RAG chat (rag-chat)')
    expect(last()?.inputs.tools).toEqual(['query', 'rag-chat'])
    fireEvent.change(field, { target: { value: 'teleport' } })
    fireEvent.keyDown(field, { key: 'Enter' })
    expect(last()?.inputs.tools).toEqual(['query', 'rag-chat', 'teleport'])
    expect(screen.getByText('teleport (unknown)')).toBeTruthy()
    expect(screen.getByText('Not a vai tool or a library workflow: teleport')).toBeTruthy()
  })
})
