import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { ReferenceSite } from '../api/types'
import { createApp } from '../app/createApp'
import { renderWithApp } from '../test/renderWithApp'
import TemplateText from './TemplateText'

const definition = {
  name: 'Two',
  steps: [
    { id: 'search', tool: 'search', inputs: { query: '{{ inputs.query }}' } },
    { id: 'merge', tool: 'merge', inputs: { arrays: ['{{ search.output.results }}'] } },
  ],
}

/** The reference index a server would return for `definition`. */
const references: ReferenceSite[] = [
  {
    pointer: '/steps/0/inputs/query',
    stepId: 'search',
    field: 'inputs.query',
    kind: 'template',
    path: 'inputs.query',
    root: 'inputs',
    target: '__inputs',
    start: 3,
    end: 15,
    rootStart: 3,
    rootEnd: 9,
    templateStart: 0,
    templateEnd: 18,
    whole: true,
  },
  {
    pointer: '/steps/1/inputs/arrays/0',
    stepId: 'merge',
    field: 'inputs.arrays[0]',
    kind: 'template',
    path: 'search.output.results',
    root: 'search',
    target: 'search',
    start: 3,
    end: 24,
    rootStart: 3,
    rootEnd: 9,
    templateStart: 0,
    templateEnd: 27,
    whole: true,
  },
]

function serve() {
  const calls: unknown[] = []
  globalThis.fetch = vi.fn(async (path: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ path: String(path), body: JSON.parse(String(init?.body)) })
    return new Response(JSON.stringify({ references }), { status: 200 })
  }) as typeof fetch
  const app = createApp()
  app.stores.workflow.getState().setOpened({ current: { key: 'k', label: 'Two', text: '', definition }, diagnostics: [] })
  return { calls, app }
}

describe('TemplateText', () => {
  it('links the references the index lists at its pointer, asking once per document', async () => {
    const { calls, app } = serve()
    renderWithApp(
      <>
        <TemplateText value="{{ search.output.results }}" pointer="/steps/1/inputs/arrays/0" />
        <TemplateText value="{{ inputs.query }}" pointer="/steps/0/inputs/query" />
      </>,
      app,
    )
    const link = await screen.findByRole('button', { name: 'search.output.results' })
    expect(link.getAttribute('title')).toBe('Select step search')
    expect(screen.getByRole('button', { name: 'inputs.query' }).getAttribute('title')).toBe('Show the workflow inputs')
    expect(calls).toEqual([{ path: '/api/workflows/references', body: { definition } }])
    fireEvent.click(link)
    expect(app.stores.workflow.getState().selected).toBe('search')
  })

  it('shows text with no sites at its pointer as it is', async () => {
    const { app } = serve()
    renderWithApp(<TemplateText value="{{ search.output.results }}" pointer="/steps/9/inputs/x" />, app)
    await waitFor(() => expect(screen.getByText('{{ search.output.results }}')).toBeTruthy())
    expect(screen.queryByRole('button')).toBeNull()
  })
})
