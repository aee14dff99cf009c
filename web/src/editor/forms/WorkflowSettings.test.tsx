import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { Diagnostic, Workflow } from '../../api/types'
import { silentCompleter } from './testFixtures'
import type { Renamer } from './types'
import WorkflowSettings from './WorkflowSettings'

vi.setConfig({ testTimeout: 30_000 })

const workflow: Workflow = {
  name: 'Flow',
  inputs: { query: { type: 'string', required: true }, limit: { type: 'number', default: 5 } },
  defaults: { collection: 'docs' },
  steps: [{ id: 'search', tool: 'search', inputs: { query: '{{ inputs.query }}' } }],
  output: { answer: '{{ search.output.results }}' },
  branding: { icon: 'x' },
}

function renderSettings(o: { initial?: Workflow; onRenameInput?: Renamer; diagnostics?: Diagnostic[]; focusField?: string } = {}) {
  const changes: { workflow: Workflow; field?: string }[] = []
  function Harness() {
    const [current, setCurrent] = useState(o.initial ?? workflow)
    return (
      <WorkflowSettings
        workflow={current}
        diagnostics={o.diagnostics ?? []}
        onChange={(next, field) => {
          changes.push({ workflow: next, field })
          setCurrent(next)
        }}
        onRenameInput={o.onRenameInput ?? (async () => undefined)}
        complete={silentCompleter}
        focusField={o.focusField}
      />
    )
  }
  render(<Harness />)
  return { changes, last: () => changes.at(-1)?.workflow }
}

const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } })
const input = (name: string) => within(screen.getByRole('group', { name: `Input ${name}` }))

describe('WorkflowSettings inputs', () => {
  it('adds an input with a fresh name, appended', () => {
    const { last } = renderSettings()
    fireEvent.click(screen.getByRole('button', { name: 'Add input' }))
    expect(Object.keys(last()?.inputs ?? {})).toEqual(['query', 'limit', 'input_1'])
    expect(last()?.inputs?.input_1).toEqual({ type: 'string' })
  })

  it('renames through the editor on Enter and shows its error', async () => {
    const onRenameInput = vi.fn<Renamer>(async (_from, to) => (to === 'limit' ? 'input "limit" already exists' : undefined))
    renderSettings({ onRenameInput })
    const name = input('query').getByRole('textbox', { name: 'Name' })
    type(name, 'limit')
    await act(async () => {
      fireEvent.keyDown(name, { key: 'Enter' })
    })
    expect(onRenameInput).toHaveBeenCalledWith('query', 'limit')
    expect(screen.getByText('input "limit" already exists')).toBeTruthy()
  })

  it('removes an input; the last one removed takes the inputs key with it', () => {
    const { last } = renderSettings()
    fireEvent.click(screen.getByRole('button', { name: 'Remove input query' }))
    expect(last()?.inputs).toEqual({ limit: { type: 'number', default: 5 } })
    fireEvent.click(screen.getByRole('button', { name: 'Remove input limit' }))
    expect(last() && 'inputs' in last()!).toBe(false)
    expect(Object.keys(last() ?? {})).toEqual(['name', 'defaults', 'steps', 'output', 'branding'])
  })

  it('types the default by the declared type, and drops a default the new type refuses', () => {
    const { last } = renderSettings()
    type(input('limit').getByRole('textbox', { name: 'Default' }), '12')
    expect(last()?.inputs?.limit.default).toBe(12)
    fireEvent.mouseDown(input('limit').getByRole('combobox', { name: /Type/ }))
    fireEvent.click(screen.getByRole('option', { name: 'string' }))
    expect(last()?.inputs?.limit).toEqual({ type: 'string' })
  })

  it('required is true or absent', () => {
    const { last } = renderSettings()
    fireEvent.click(input('query').getByRole('switch', { name: /Required/ }))
    expect(last()?.inputs?.query).toEqual({ type: 'string' })
    fireEvent.click(input('query').getByRole('switch', { name: /Required/ }))
    expect(last()?.inputs?.query).toEqual({ type: 'string', required: true })
  })
})

describe('WorkflowSettings defaults and output', () => {
  it('a default switched to number keeps a number', () => {
    const { last } = renderSettings({ initial: { ...workflow, defaults: { limit: '10' } } })
    const row = within(screen.getByRole('group', { name: 'Default limit' }))
    fireEvent.mouseDown(row.getByRole('combobox', { name: /Type/ }))
    fireEvent.click(screen.getByRole('option', { name: 'number' }))
    expect(last()?.defaults).toEqual({ limit: 10 })
  })

  it('adds, renames in place and removes output fields', async () => {
    const { last } = renderSettings()
    fireEvent.click(screen.getByRole('button', { name: 'Add output field' }))
    expect(last()?.output).toEqual({ answer: '{{ search.output.results }}', field_1: '' })
    const name = within(screen.getByRole('group', { name: 'Output answer' })).getByRole('textbox', { name: 'Name' })
    type(name, 'results')
    await act(async () => {
      fireEvent.blur(name)
    })
    expect(Object.keys(last()?.output as object)).toEqual(['results', 'field_1'])
    fireEvent.click(screen.getByRole('button', { name: 'Remove output field_1' }))
    expect(last()?.output).toEqual({ results: '{{ search.output.results }}' })
  })

  it('keeps keys it does not edit and shows version diagnostics under the version', () => {
    const diagnostics: Diagnostic[] = [{ severity: 'warning', code: 'INVALID_VERSION', message: 'version "one" is not semver (e.g. 1.0.0)', field: 'version' }]
    const { last } = renderSettings({ diagnostics })
    const version = screen.getByRole('textbox', { name: 'Version' })
    expect(document.getElementById(version.getAttribute('aria-describedby') ?? '')?.textContent).toContain('not semver')
    type(version, '1.0.0')
    expect(Object.keys(last() ?? {})).toEqual(['name', 'inputs', 'defaults', 'steps', 'output', 'branding', 'version'])
    expect(last()?.branding).toEqual({ icon: 'x' })
  })
})

describe('WorkflowSettings focus', () => {
  it('focuses the field a problem names', () => {
    renderSettings({ focusField: 'inputs.limit.default' })
    expect(document.activeElement).toBe(input('limit').getByRole('textbox', { name: 'Default' }))
  })

  it('an output field named by a problem gets the focus on its template', () => {
    renderSettings({ focusField: 'output.answer' })
    expect(document.activeElement).toBe(within(screen.getByRole('group', { name: 'Output answer' })).getByRole('textbox', { name: 'Value' }))
  })
})
