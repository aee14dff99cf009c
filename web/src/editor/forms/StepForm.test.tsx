import { act, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { Diagnostic, Step, ToolView } from '../../api/types'
import StepForm from './StepForm'
import { conditionalTool, httpTool, mergeTool, searchTool, silentCompleter } from './testFixtures'
import type { Renamer } from './types'

interface Options {
  tool?: ToolView
  diagnostics?: Diagnostic[]
  onRename?: Renamer
  focusField?: string
}

/** Renders the form around a state holder, as the editor does; records every change. */
function renderForm(step: Step, o: Options = {}) {
  const changes: { step: Step; field?: string }[] = []
  function Harness({ focusField }: { focusField?: string }) {
    const [current, setCurrent] = useState(step)
    return (
      <StepForm
        step={current}
        tool={'tool' in o ? o.tool : searchTool}
        stepIds={['search', 'merge', 'answer', 'check']}
        inputNames={['query']}
        diagnostics={o.diagnostics ?? []}
        onChange={(next, field) => {
          changes.push({ step: next, field })
          setCurrent(next)
        }}
        onRename={o.onRename ?? (async () => undefined)}
        complete={silentCompleter}
        focusField={focusField}
      />
    )
  }
  const view = render(<Harness focusField={o.focusField} />)
  return { changes, last: () => changes.at(-1)?.step, rerender: (focusField?: string) => view.rerender(<Harness focusField={focusField} />) }
}

// A whole MUI form rendered in jsdom takes seconds on a busy 2-core machine; this is not a
// speed assertion, only room for it.
vi.setConfig({ testTimeout: 30_000 })

const search: Step = { id: 'search', tool: 'search', inputs: { query: '{{ inputs.query }}', limit: 5 } }
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } })

describe('StepForm values keep their JSON types', () => {
  it('a number field writes a number', () => {
    const { last, changes } = renderForm(search)
    type(screen.getByRole('textbox', { name: 'limit' }), '25')
    expect(last()?.inputs.limit).toBe(25)
    expect(changes.at(-1)?.field).toBe('inputs.limit')
  })

  it('refuses a fraction in an integer field and a value past the maximum, changing nothing', () => {
    const { changes } = renderForm(search)
    const limit = screen.getByRole('textbox', { name: 'limit' })
    type(limit, '2.5')
    expect(screen.getByText('Must be a whole number')).toBeTruthy()
    type(limit, '1000')
    expect(screen.getByText('Must be at most 100')).toBeTruthy()
    expect(changes).toHaveLength(0)
  })

  it('clearing an optional field removes its key and keeps the order of the others', () => {
    const step: Step = { id: 'search', tool: 'search', inputs: { limit: 5, query: 'q', db: 'x' } }
    const { last } = renderForm(step)
    type(screen.getByRole('textbox', { name: 'limit' }), '')
    expect(Object.keys(last()?.inputs ?? {})).toEqual(['query', 'db'])
  })

  it('a required text field cleared keeps its key, empty', () => {
    const { last } = renderForm(search)
    type(screen.getByRole('textbox', { name: 'query' }), '')
    expect(Object.keys(last()?.inputs ?? {})).toEqual(['query', 'limit'])
    expect(last()?.inputs.query).toBe('')
  })

  it('keeps unknown step keys and unknown inputs, in order', () => {
    const step = { id: 'search', x_note: 'keep me', tool: 'search', inputs: { custom: [1, 2], query: 'q' }, timeoutMs: 100 } as Step
    const { last } = renderForm(step)
    type(screen.getByRole('textbox', { name: 'query' }), 'q2')
    expect(Object.keys(last() ?? {})).toEqual(['id', 'x_note', 'tool', 'inputs', 'timeoutMs'])
    expect((last() as Record<string, unknown> | undefined)?.x_note).toBe('keep me')
    expect(last()?.inputs).toEqual({ custom: [1, 2], query: 'q2' })
  })

  it('keeps an edit of one section when another is edited next (each writes onto the latest step)', () => {
    const { last } = renderForm(search)
    type(screen.getByRole('textbox', { name: 'query' }), 'q2')
    type(screen.getByRole('textbox', { name: 'Max attempts' }), '3')
    type(screen.getByRole('textbox', { name: 'Timeout (ms)' }), '500')
    type(screen.getByRole('textbox', { name: 'limit' }), '7')
    expect(last()).toEqual({ ...search, inputs: { query: 'q2', limit: 7 }, retry: { maxAttempts: 3 }, timeoutMs: 500 })
  })

  it('shows the declared default as a placeholder', () => {
    renderForm({ id: 'search', tool: 'search', inputs: { query: 'q' } })
    expect(screen.getByRole('textbox', { name: 'limit' }).getAttribute('placeholder')).toBe('default: 10')
  })

  it('an enum goes back to unset, removing its key', () => {
    const { last } = renderForm({ id: 'call', tool: 'http', inputs: { url: 'https://x', method: 'POST' } }, { tool: httpTool })
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^method/ }))
    fireEvent.click(screen.getByRole('option', { name: '(default: GET)' }))
    expect(last()?.inputs).toEqual({ url: 'https://x' })
  })

  it('a switch writes a boolean and resets to the default by removing the key', () => {
    const { last } = renderForm({ id: 'merge', tool: 'merge', inputs: { arrays: [] } }, { tool: mergeTool })
    fireEvent.click(screen.getByRole('switch', { name: /dedup/ }))
    expect(last()?.inputs.dedup).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Reset dedup to its default' }))
    expect(last()?.inputs).toEqual({ arrays: [] })
  })
})

describe('StepForm templates in typed fields', () => {
  it('shows a template in a number field as a template, and toggles to the number widget', () => {
    const step: Step = { id: 'search', tool: 'search', inputs: { query: 'q', limit: '{{ inputs.limit }}' } }
    const { last, changes } = renderForm(step)
    const toggle = screen.getByRole('button', { name: 'Template mode for limit' })
    expect(toggle.getAttribute('aria-pressed')).toBe('true')
    expect((screen.getByRole('textbox', { name: 'limit' }) as HTMLInputElement).value).toBe('{{ inputs.limit }}')
    fireEvent.click(toggle)
    expect(changes).toHaveLength(0) // not a number: the value stays until the person types one
    const limit = screen.getByRole('textbox', { name: 'limit' }) as HTMLInputElement
    expect(limit.value).toBe('')
    type(limit, '7')
    expect(last()?.inputs.limit).toBe(7)
  })

  it('turns a number into a template and back, converting text that reads as a number', () => {
    const { last } = renderForm(search)
    fireEvent.click(screen.getByRole('button', { name: 'Template mode for limit' }))
    const limit = screen.getByRole('textbox', { name: 'limit' }) as HTMLInputElement
    expect(limit.value).toBe('5')
    type(limit, '{{ inputs.n }}')
    expect(last()?.inputs.limit).toBe('{{ inputs.n }}')
    type(screen.getByRole('textbox', { name: 'limit' }), '12')
    expect(last()?.inputs.limit).toBe('12')
    fireEvent.click(screen.getByRole('button', { name: 'Template mode for limit' }))
    expect(last()?.inputs.limit).toBe(12)
  })
})

describe('StepForm arrays', () => {
  const merge: Step = { id: 'merge', tool: 'merge', inputs: { arrays: ['{{ search.output.results }}'] } }

  it('adds, edits, moves and removes items, each a template field', () => {
    const { last } = renderForm(merge, { tool: mergeTool })
    fireEvent.click(screen.getByRole('button', { name: 'Add arrays item' }))
    expect(last()?.inputs.arrays).toEqual(['{{ search.output.results }}', ''])
    type(screen.getByRole('textbox', { name: 'arrays item 2' }), '{{ answer.output.results }}')
    fireEvent.click(screen.getByRole('button', { name: 'Move arrays item 2 up' }))
    expect(last()?.inputs.arrays).toEqual(['{{ answer.output.results }}', '{{ search.output.results }}'])
    fireEvent.click(screen.getByRole('button', { name: 'Remove arrays item 1' }))
    expect(last()?.inputs.arrays).toEqual(['{{ search.output.results }}'])
  })

  it('a required array emptied keeps its key', () => {
    const { last } = renderForm(merge, { tool: mergeTool })
    fireEvent.click(screen.getByRole('button', { name: 'Remove arrays item 1' }))
    expect(last()?.inputs).toEqual({ arrays: [] })
  })
})

describe('StepForm step ids', () => {
  const check: Step = { id: 'check', tool: 'conditional', inputs: { condition: '{{ search.output.resultCount > 0 }}', then: ['answer'] } }

  it('picks step ids from the document, not this step, and keeps an array', () => {
    const { last } = renderForm(check, { tool: conditionalTool })
    const input = screen.getByRole('combobox', { name: 'else' })
    fireEvent.mouseDown(input)
    const options = screen.getAllByRole('option').map((o) => o.textContent)
    expect(options).toEqual(['search', 'merge', 'answer'])
    fireEvent.click(screen.getByRole('option', { name: 'merge' }))
    expect(last()?.inputs.else).toEqual(['merge'])
  })

  it('an optional list emptied loses its key; a required one stays an empty array', () => {
    const { last } = renderForm({ ...check, inputs: { ...check.inputs, else: ['merge'] } }, { tool: conditionalTool })
    // Backspace in an empty Autocomplete input removes the last chip.
    fireEvent.keyDown(screen.getByRole('combobox', { name: 'else' }), { key: 'Backspace' })
    expect(last()?.inputs).toEqual({ condition: check.inputs.condition, then: ['answer'] })
    fireEvent.keyDown(screen.getByRole('combobox', { name: 'then' }), { key: 'Backspace' })
    expect(last()?.inputs.then).toEqual([])
  })
})

describe('StepForm id', () => {
  it('renames on Enter and shows the error the editor returns', async () => {
    const onRename = vi.fn<Renamer>(async (_from, to) => `step id "${to}" is taken`)
    renderForm(search, { onRename })
    const id = screen.getByRole('textbox', { name: 'Id' })
    type(id, 'merge')
    await act(async () => {
      fireEvent.keyDown(id, { key: 'Enter' })
    })
    expect(onRename).toHaveBeenCalledWith('search', 'merge')
    expect(screen.getByText('step id "merge" is taken')).toBeTruthy()
  })

  it('checks the identifier pattern while typing, without asking the editor', () => {
    const onRename = vi.fn<Renamer>(async () => undefined)
    renderForm(search, { onRename })
    const id = screen.getByRole('textbox', { name: 'Id' })
    type(id, '1st')
    expect(screen.getByText(/uses letters, digits and _/)).toBeTruthy()
    fireEvent.blur(id)
    expect(onRename).not.toHaveBeenCalled()
  })
})

describe('StepForm raw JSON', () => {
  const open = () => {
    fireEvent.click(screen.getByRole('button', { name: 'Edit the step as JSON' }))
    return screen.getByRole('textbox', { name: 'Step JSON' })
  }

  it('applies valid JSON, keeping keys the form does not know', () => {
    const { last, changes } = renderForm(search)
    const json = open()
    type(json, JSON.stringify({ ...search, tags: ['a'] }))
    expect(last()).toEqual({ ...search, tags: ['a'] })
    expect(changes.at(-1)?.field).toBe('json')
  })

  it('says why invalid JSON or an id change is refused, and changes nothing', () => {
    const { changes } = renderForm(search)
    const json = open()
    type(json, '{"id": "search",')
    expect(screen.getByText(/^Invalid JSON/)).toBeTruthy()
    type(json, JSON.stringify({ ...search, id: 'other' }))
    expect(screen.getByText(/Rename the step with the Id field/)).toBeTruthy()
    expect(changes).toHaveLength(0)
  })

  it('is all an unknown tool gets', () => {
    renderForm({ id: 'x', tool: 'nope', inputs: {} }, { tool: undefined })
    expect(screen.getByText(/Unknown tool “nope”/)).toBeTruthy()
    expect(screen.getByRole('textbox', { name: 'Step JSON' })).toBeTruthy()
    expect(screen.queryByRole('textbox', { name: 'Condition' })).toBeNull()
  })
})

describe('StepForm diagnostics and focus', () => {
  it('shows each diagnostic under the field it names, the rest at the top', () => {
    const diagnostics: Diagnostic[] = [
      { severity: 'error', code: 'TEMPLATE_SYNTAX', message: 'unclosed template', stepId: 'search', field: 'inputs.query' },
      { severity: 'warning', code: 'ORPHAN_NODE', message: 'something about the step', stepId: 'search' },
    ]
    renderForm(search, { diagnostics })
    const query = screen.getByRole('textbox', { name: 'query' })
    expect(query.getAttribute('aria-invalid')).toBe('true')
    const helper = document.getElementById(query.getAttribute('aria-describedby') ?? '')
    expect(helper?.textContent).toContain('unclosed template')
    expect(screen.getByRole('status').textContent).toContain('something about the step')
  })

  it('focuses the field named by focusField', () => {
    const { rerender } = renderForm(search)
    rerender('inputs.limit')
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'limit' }))
    rerender('retry')
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Max attempts' }))
  })
})
