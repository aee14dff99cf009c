import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../app/createApp'
import { renderWithApp } from '../test/renderWithApp'
import SaveTestCase from './SaveTestCase'

const bodies: unknown[] = []
function answer(status: number, body: unknown) {
  globalThis.fetch = (async (_: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)))
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
  }) as typeof fetch
}

describe('Save as test case', () => {
  let app: App
  beforeEach(() => {
    app = createApp()
    bodies.length = 0
    app.stores.workflow.setState({ current: { id: 'file:flow.vai-workflow.json', key: 'file:flow.vai-workflow.json', label: 'Flow', text: '{}' } })
  })

  it('is offered only for a saved file workflow', () => {
    app.stores.workflow.setState({ current: { id: 'builtin:x', key: 'builtin:x', label: 'X', text: '{}' } })
    renderWithApp(<SaveTestCase runId="r1" />, app)
    expect(screen.getByRole('button', { name: 'Save as test case' }).hasAttribute('disabled')).toBe(true)
  })

  it('asks for a name and shows where the case was written', async () => {
    answer(200, { fileName: 'flow.basic.test.json', path: 'tests/flow.basic.test.json', text: '{}' })
    renderWithApp(<SaveTestCase runId="r1" />, app)
    fireEvent.click(screen.getByRole('button', { name: 'Save as test case' }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await within(dialog).findByText('tests/flow.basic.test.json')
    expect(bodies).toEqual([{ name: 'basic' }])
  })

  it('checks the name, and offers to replace an existing case', async () => {
    answer(409, { error: { code: 'CONFLICT', message: 'tests/flow.basic.test.json already exists' } })
    renderWithApp(<SaveTestCase runId="r1" />, app)
    fireEvent.click(screen.getByRole('button', { name: 'Save as test case' }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Case name' }), { target: { value: 'bad name' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(within(dialog).getByText(/Letters, digits/)).toBeTruthy()
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Case name' }), { target: { value: 'basic' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await within(dialog).findByText(/already exists/)
    answer(200, { fileName: 'flow.basic.test.json', path: 'tests/flow.basic.test.json', text: '{}' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace' }))
    await waitFor(() => expect(bodies.at(-1)).toEqual({ name: 'basic', overwrite: true }))
  })
})
