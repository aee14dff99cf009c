import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import type { CompleteResponse, Completion } from '../../api/types'
import { FormContext } from './FormContext'
import TemplateField from './TemplateField'
import type { CompleteRequest, Completer } from './types'

vi.setConfig({ testTimeout: 30_000 })

const item = (label: string, kind: Completion['kind'] = 'input'): Completion => ({ label, insert: label, kind })

/** A completer whose answers the test releases, in any order. */
function fakeCompleter() {
  const calls: { req: CompleteRequest; answer(r: CompleteResponse): Promise<void> }[] = []
  const complete: Completer = (req) =>
    new Promise((resolve) => {
      calls.push({ req, answer: (r) => act(async () => resolve(r)) })
    })
  return { complete, calls }
}

function Harness({ complete, initial = '', mode }: { complete: Completer; initial?: string; mode?: 'expression' }) {
  const [value, setValue] = useState<string | undefined>(initial)
  return (
    <FormContext.Provider value={{ complete, stepId: 'answer', stepIds: [] }}>
      <TemplateField label="prompt" field="inputs.prompt" value={value} mode={mode} diagnostics={[]} onChange={setValue} />
      <output aria-label="value">{JSON.stringify(value)}</output>
    </FormContext.Provider>
  )
}

const field = () => screen.getByRole('textbox', { name: 'prompt' }) as HTMLInputElement
const typeText = (value: string) => fireEvent.change(field(), { target: { value } })
const shown = () => screen.getByRole('status', { name: 'value' }).textContent

describe('TemplateField completion', () => {
  it('asks inside {{ }} after typing, navigates with the keyboard and replaces [from, to)', async () => {
    const { complete, calls } = fakeCompleter()
    render(<Harness complete={complete} />)
    typeText('Q: {{ in')
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0].req).toEqual({ stepId: 'answer', field: 'inputs.prompt', text: 'Q: {{ in', cursor: 8 })
    await calls[0].answer({ from: 6, to: 8, items: [item('inputs.query'), item('inputs.limit')] })

    const options = screen.getAllByRole('option')
    expect(options.map((o) => o.getAttribute('aria-selected'))).toEqual(['true', 'false'])
    expect(field().getAttribute('aria-activedescendant')).toBe(options[0].id)
    fireEvent.keyDown(field(), { key: 'ArrowDown' })
    expect(screen.getAllByRole('option')[1].getAttribute('aria-selected')).toBe('true')
    fireEvent.keyDown(field(), { key: 'ArrowDown' }) // wraps round
    fireEvent.keyDown(field(), { key: 'ArrowUp' })
    fireEvent.keyDown(field(), { key: 'Enter' })
    expect(shown()).toBe('"Q: {{ inputs.limit"')
    expect(screen.queryByRole('listbox')).toBeNull()
  })

  it('drops an answer that arrives after a newer request', async () => {
    const { complete, calls } = fakeCompleter()
    render(<Harness complete={complete} />)
    typeText('{{ s')
    await waitFor(() => expect(calls).toHaveLength(1))
    typeText('{{ se')
    await waitFor(() => expect(calls).toHaveLength(2))
    await calls[1].answer({ from: 3, to: 5, items: [item('search', 'step')] })
    await calls[0].answer({ from: 3, to: 4, items: [item('stale', 'step')] })
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['searchstep'])
  })

  it('Tab accepts, Escape closes without changing the text', async () => {
    const { complete, calls } = fakeCompleter()
    render(<Harness complete={complete} />)
    typeText('{{ a')
    await waitFor(() => expect(calls).toHaveLength(1))
    await calls[0].answer({ from: 3, to: 4, items: [item('answer', 'step')] })
    fireEvent.keyDown(field(), { key: 'Escape' })
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(shown()).toBe('"{{ a"')
    typeText('{{ an')
    await waitFor(() => expect(calls).toHaveLength(2))
    await calls[1].answer({ from: 3, to: 5, items: [item('answer', 'step')] })
    fireEvent.keyDown(field(), { key: 'Tab' })
    expect(shown()).toBe('"{{ answer"')
  })

  it('does not ask outside a template, but Ctrl+Space asks at once', async () => {
    const { complete, calls } = fakeCompleter()
    render(<Harness complete={complete} initial="" />)
    typeText('plain text')
    typeText('plain text {{ x }} more')
    fireEvent.keyDown(field(), { key: ' ', code: 'Space', ctrlKey: true })
    expect(calls).toHaveLength(1)
    expect(calls[0].req.text).toBe('plain text {{ x }} more')
  })

  it('in an expression field, asks anywhere', async () => {
    const { complete, calls } = fakeCompleter()
    render(<Harness complete={complete} mode="expression" />)
    typeText('item.sc')
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0].req.cursor).toBe(7)
  })

  it('picks an option with the mouse', async () => {
    const { complete, calls } = fakeCompleter()
    render(<Harness complete={complete} />)
    typeText('{{ ')
    await waitFor(() => expect(calls).toHaveLength(1))
    await calls[0].answer({ from: 3, to: 3, items: [item('inputs'), item('defaults', 'default')] })
    fireEvent.click(screen.getByRole('option', { name: /defaults/ }))
    expect(shown()).toBe('"{{ defaults"')
  })

  it('clearing an optional field removes its value', () => {
    const { complete } = fakeCompleter()
    render(<Harness complete={complete} initial="x" />)
    typeText('')
    expect(shown()).toBe('')
  })
})
