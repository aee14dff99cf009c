// Cancelling: a run whose http step waits on a slow loopback server (support/slow-server.mjs)
// is cancelled from the run bar; the run and the running step end "cancelled".
import { expect, node, openWorkflow, regions, runStatus, test } from '../support/test'

test('Cancel stops a running workflow', async ({ page, request, slowUrl }) => {
  await openWorkflow(page, 'file:slow-request.vai-workflow.json')
  const { runBar } = regions(page)
  const cancel = runBar.getByRole('button', { name: 'Cancel' })
  await expect(cancel).toBeDisabled()

  await runBar.getByRole('textbox', { name: /^url/ }).fill(slowUrl)
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()

  await expect(runStatus(page)).toHaveText('Running')
  await expect(node(page, 'start')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'fetch')).toHaveAttribute('data-status', 'running')
  await expect(cancel).toBeEnabled()

  const clicked = Date.now()
  await cancel.click()
  await expect(runStatus(page)).toHaveText('Cancelled')
  await expect(node(page, 'fetch')).toHaveAttribute('data-status', 'cancelled')
  // Well before the slow server would have answered (20 s).
  expect(Date.now() - clicked).toBeLessThan(10_000)
  await expect(cancel).toBeDisabled()

  // The server agrees.
  const { runs } = await (await request.get('/api/runs')).json()
  const mine = (runs as { workflow: string; status: string; startedAt: number }[])
    .filter((r) => r.workflow === 'Slow Request')
    .sort((a, b) => b.startedAt - a.startedAt)
  expect(mine[0]?.status).toBe('cancelled')
})
