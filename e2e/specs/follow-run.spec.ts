// During a run — a plain Run, not only step-through — the canvas keeps the running step in
// view: a workflow far too wide to be shown whole pans to the step that runs, at the zoom the
// person had. The last step of the `long-chain` fixture calls the slow loopback server
// (support/slow-server.mjs), so it is still running when looked at; the run is then cancelled.
import { expectTitlesLegible, nodesOutOfView } from '../support/canvas'
import { expect, node, openWorkflow, regions, runStatus, test } from '../support/test'

test('a plain Run brings the running step into view', async ({ page, slowUrl }) => {
  await openWorkflow(page, 'file:long-chain.vai-workflow.json')
  await expectTitlesLegible(page)
  // Shown from its start: the last step is far off to the right.
  await expect.poll(() => nodesOutOfView(page)).toContain('fetch')
  await expect(node(page, 'note_1')).toBeInViewport()

  const { runBar } = regions(page)
  await runBar.getByRole('textbox', { name: /^url/ }).fill(slowUrl)
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(node(page, 'fetch')).toHaveAttribute('data-status', 'running', { timeout: 30_000 })

  await expect.poll(() => nodesOutOfView(page), { timeout: 5_000 }).not.toContain('fetch')
  await expectTitlesLegible(page)

  await runBar.getByRole('button', { name: 'Cancel' }).click()
  await expect(runStatus(page)).toHaveText('Cancelled')
})
