import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import type { WaitingFor } from '../api/types'
import { createApp, type App } from '../app/createApp'
import { definition, graph, installFakeServer, type Call } from '../test/fakeServer'
import { renderWithApp } from '../test/renderWithApp'
import InspectorPanel from './InspectorPanel'

const waiting: WaitingFor = {
  stepId: 'merge',
  within: [],
  message: 'Book these seats?',
  expects: {
    type: 'object',
    properties: {
      approved: { type: 'boolean' },
      seats: { type: 'integer', minimum: 1, maximum: 9, description: 'How many' },
      class: { enum: ['economy', 'business'] },
    },
    required: ['approved', 'seats'],
  },
}

const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status })

describe('the answer form of a waiting run', () => {
  let app: App
  let reply: Response | undefined
  let server: ReturnType<typeof installFakeServer>
  beforeEach(() => {
    reply = undefined
    server = installFakeServer({ respond: ({ path }: Call) => (path === '/api/runs/r1/input' ? reply : undefined) })
    app = createApp()
    app.stores.workflow.setState({ current: { key: 'builtin:two', label: 'Two Steps', text: '', definition }, graph })
    app.stores.run.setState({ runId: 'r1', status: 'waiting', waiting, steps: { merge: { status: 'waiting' } } })
  })
  const posted = () => server.calls.filter((c) => c.path === '/api/runs/r1/input').map((c) => c.body)
  const form = () => within(screen.getByRole('form', { name: 'Answer' }))
  const seats = () => form().getByRole('spinbutton', { name: /seats/ })
  const submit = () => fireEvent.click(form().getByRole('button', { name: 'Submit' }))

  it('shows the message and one field per property, required ones marked', () => {
    renderWithApp(<InspectorPanel />, app)
    expect(screen.getByText('Book these seats?')).toBeTruthy()
    expect(screen.getByText('Merge it')).toBeTruthy()
    expect(seats().hasAttribute('required')).toBe(true)
    expect(screen.getByText('How many')).toBeTruthy()
    expect(form().getByLabelText('approved *')).toBeTruthy()
    expect(form().getByRole('combobox', { name: 'class' })).toBeTruthy()
  })

  it('says what is wrong under each field before sending anything', () => {
    renderWithApp(<InspectorPanel />, app)
    submit()
    expect(form().getByText('Is required')).toBeTruthy()
    fireEvent.change(seats(), { target: { value: '12' } })
    expect(form().queryByText('Is required')).toBeNull()
    submit()
    expect(form().getByText('Must be at most 9')).toBeTruthy()
    expect(posted()).toEqual([])
  })

  it('sends the typed answer, then waits for the run to go on', async () => {
    reply = json({ runId: 'r1', status: 'running' }, 202)
    renderWithApp(<InspectorPanel />, app)
    fireEvent.click(form().getByLabelText('approved *'))
    fireEvent.change(seats(), { target: { value: '2' } })
    fireEvent.mouseDown(form().getByRole('combobox', { name: 'class' }))
    fireEvent.click(screen.getByRole('option', { name: 'business' }))
    submit()
    await waitFor(() => expect(posted()).toEqual([{ stepId: 'merge', input: { approved: true, seats: 2, class: 'business' } }]))
    expect(await form().findByRole('button', { name: 'Sent' })).toHaveProperty('disabled', true)
    // The socket's events end the wait, and the form goes.
    app.stores.run.getState().apply({ type: 'event', runId: 'r1', seq: 1, event: { type: 'step_completed', stepId: 'merge', durationMs: 0, summary: '' } })
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Answer' })).toBeNull())
  })

  it('shows the server’s refusal under the fields it names', async () => {
    reply = json({ error: { code: 'INVALID_ANSWER', message: 'the answer does not fit', fields: [{ field: 'seats', message: 'is taken' }] } }, 400)
    renderWithApp(<InspectorPanel />, app)
    fireEvent.change(seats(), { target: { value: '3' } })
    submit()
    expect(await form().findByText('Is taken')).toBeTruthy()
    expect(form().getByRole('alert').textContent).toBe('the answer does not fit')
    expect(form().getByRole('button', { name: 'Submit' })).toHaveProperty('disabled', false)
  })

  it('says so when the run no longer waits', async () => {
    reply = json({ error: { code: 'NOT_WAITING', message: 'run r1 is not waiting' } }, 409)
    renderWithApp(<InspectorPanel />, app)
    fireEvent.change(seats(), { target: { value: '3' } })
    submit()
    expect((await form().findByRole('alert')).textContent).toContain('no longer waits')
  })

  it('names the sub-workflow steps a nested wait is within', () => {
    app.stores.run.setState({ waiting: { ...waiting, stepId: 'ask', within: ['merge', 'inner'] } })
    renderWithApp(<InspectorPanel />, app)
    expect(screen.getByText('Merge it › inner › ask')).toBeTruthy()
  })

  it('is not there while the run runs', () => {
    app.stores.run.setState({ status: 'running' })
    renderWithApp(<InspectorPanel />, app)
    expect(screen.queryByRole('form', { name: 'Answer' })).toBeNull()
  })
})
