import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { createApp, type App } from '../app/createApp'
import { installFakeServer } from '../test/fakeServer'
import { renderWithApp } from '../test/renderWithApp'
import { first, historyRoutes, record } from './fixtures'
import HistoryBanner from './HistoryBanner'

let server: ReturnType<typeof installFakeServer>
let app: App

function serve(changedSince?: string[]) {
  server = installFakeServer({ respond: historyRoutes({ 'r-first': record(first, { changedSince }) }) })
  app = createApp()
}

const banner = () => screen.getByRole('region', { name: 'Past run' })

beforeEach(() => {
  window.history.replaceState(null, '', '/')
})

describe('HistoryBanner', () => {
  it('says it is a past run, when it ran, how it ended, and what changed in the workflow since', async () => {
    serve(['step "merge" changed', '"inputs" changed'])
    await app.history.open('r-first')
    renderWithApp(<HistoryBanner />, app)
    expect(screen.getByTestId('past-run-line').textContent).toMatch(/^Past run from .+ · Completed · took 1\.20 s · \$0\.0012$/)
    const changes = screen.getByTestId('past-run-changes')
    expect(changes.textContent).toContain('The workflow has changed since:')
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['step "merge" changed', '"inputs" changed'])
    expect(within(banner()).getByRole('button', { name: 'Back to the workflow' })).toBeTruthy()
  })

  it('says when the workflow is unchanged, and when it is no longer in the library', async () => {
    serve([])
    await app.history.open('r-first')
    const { unmount } = renderWithApp(<HistoryBanner />, app)
    expect(screen.getByTestId('past-run-changes').textContent).toBe('The workflow has not changed since.')
    unmount()
    serve(undefined)
    await app.history.open('r-first')
    renderWithApp(<HistoryBanner />, app)
    expect(screen.getByTestId('past-run-changes').textContent).toContain('no longer in the library')
    expect(within(banner()).getByRole('button', { name: 'Close' })).toBeTruthy()
  })

  it('restarts from a step picked in its menu, then follows the new run', async () => {
    serve([])
    await app.history.open('r-first')
    renderWithApp(<HistoryBanner />, app)
    fireEvent.click(screen.getByRole('button', { name: 'Restart from…' }))
    fireEvent.click(await screen.findByRole('menuitem', { name: /Merge it/ }))
    await waitFor(() => expect(screen.getByTestId('restarted-line').textContent).toContain('Restarted from merge of the past run of'))
    expect(server.calls.find((c) => c.path.endsWith('/restart'))?.body).toEqual({ from: 'merge' })
    // Comparing waits for the new run to end.
    expect((screen.getByRole('button', { name: 'Compare with the original' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('is not there without a past run open', () => {
    serve([])
    renderWithApp(<HistoryBanner />, app)
    expect(screen.queryByRole('region', { name: 'Past run' })).toBeNull()
  })
})
