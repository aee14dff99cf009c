import { fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { Step, ToolView } from '../../api/types'
import { toolView } from '../../test/toolView'
import StepForm from './StepForm'
import { searchTool, silentCompleter } from './testFixtures'

const workflowTool = toolView('workflow', {
  inputSchema: {
    type: 'object',
    properties: { workflow: { type: 'string', description: 'The workflow to run' }, inputs: { type: 'object' } },
    required: ['workflow'],
  },
})
const yieldTool = toolView('yield', {
  inputSchema: { type: 'object', properties: { message: { type: 'string' }, expects: { type: 'object' } }, required: ['message'] },
})

/** The form around a state holder, as the editor renders it; the last step it wrote. */
function renderForm(step: Step, tool: ToolView) {
  let last: Step | undefined
  function Harness() {
    const [current, setCurrent] = useState(step)
    return (
      <StepForm
        step={current}
        tool={tool}
        stepIds={[step.id]}
        inputNames={[]}
        diagnostics={[]}
        onChange={(next) => {
          last = next
          setCurrent(next)
        }}
        onRename={async () => undefined}
        complete={silentCompleter}
        childWorkflows={[{ value: 'book-flight', label: 'Book a flight (book-flight)', inputs: ['origin', 'date'] }]}
        toolNames={['http', 'search']}
      />
    )
  }
  render(<Harness />)
  return () => last
}

vi.setConfig({ testTimeout: 30_000 })

const pick = (name: RegExp | string, option: string) => {
  fireEvent.mouseDown(screen.getByRole('combobox', { name }))
  fireEvent.click(screen.getByRole('option', { name: option }))
}

describe('the orchestration tools’ forms', () => {
  it('a workflow step picks its child from the library', () => {
    const last = renderForm({ id: 'book', tool: 'workflow', inputs: {} }, workflowTool)
    pick(/workflow/, 'Book a flight (book-flight)')
    expect(last()?.inputs.workflow).toBe('book-flight')
  })

  it('the child’s declared inputs become the step’s fields, and an undeclared one can go', () => {
    const last = renderForm({ id: 'book', tool: 'workflow', inputs: { workflow: 'book-flight', inputs: { stale: 'x' } } }, workflowTool)
    const group = within(screen.getByRole('group', { name: 'Inputs of book-flight' }))
    fireEvent.change(group.getByRole('textbox', { name: 'origin' }), { target: { value: '{{ inputs.from }}' } })
    expect(last()?.inputs.inputs).toEqual({ stale: 'x', origin: '{{ inputs.from }}' })
    fireEvent.click(group.getByRole('button', { name: 'Remove input stale' }))
    expect(last()?.inputs.inputs).toEqual({ origin: '{{ inputs.from }}' })
  })

  it('a yield step’s answer fields are rows that write expects', () => {
    const last = renderForm({ id: 'ask', tool: 'yield', inputs: { message: 'Go?' } }, yieldTool)
    fireEvent.click(screen.getByRole('button', { name: 'Add answer field' }))
    const row = within(screen.getByRole('group', { name: 'Answer field 1' }))
    fireEvent.change(row.getByRole('textbox', { name: 'Field name' }), { target: { value: 'class' } })
    fireEvent.change(row.getByRole('textbox', { name: 'Allowed values' }), { target: { value: 'economy, business' } })
    fireEvent.click(row.getByRole('checkbox', { name: 'Required' }))
    expect(last()?.inputs.expects).toEqual({ type: 'object', properties: { class: { type: 'string', enum: ['economy', 'business'] } }, required: ['class'] })
  })

  it('any step takes a compensation: a tool and its inputs as JSON', () => {
    const last = renderForm({ id: 'search', tool: 'search', inputs: { query: 'q' } }, searchTool)
    fireEvent.click(screen.getByRole('button', { name: 'Add a compensation' }))
    pick('Undo with tool', 'http')
    expect(last()?.compensate).toEqual({ tool: 'http', inputs: {} })
    fireEvent.change(screen.getByRole('textbox', { name: 'Undo inputs' }), { target: { value: '{"url": "{{ search.output.id }}"}' } })
    expect(last()?.compensate).toEqual({ tool: 'http', inputs: { url: '{{ search.output.id }}' } })
    pick('Undo with tool', '(no compensation)')
    expect(last()).not.toHaveProperty('compensate')
  })
})
