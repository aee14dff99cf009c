// The cost and time overlay after a run of a built-in offline: every step shows its duration, the
// critical path (the chain of steps that decided the total time) is ringed, and the run bar
// shows the run's totals and cost; local models cost nothing, so the costs read `$0`.
import { expect, node, openWorkflow, regions, runStatus, test } from '../support/test'

const SEARCHES = ['search_1', 'search_2']
const STEPS = [...SEARCHES, 'merge', 'rerank_all']

test('the cost and time overlay shows durations, costs, the critical path and the totals', async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  const { runBar } = regions(page)
  await runBar.getByRole('textbox', { name: /^query/ }).fill('how does authentication work')
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })

  // Off: no critical path, no totals.
  const overlay = runBar.getByRole('switch', { name: 'Cost & time' })
  await expect(overlay).not.toBeChecked()
  await expect(page.locator('[data-critical="true"]')).toHaveCount(0)
  await expect(page.getByTestId('run-totals')).toHaveCount(0)

  await overlay.check()
  for (const id of STEPS) await expect(node(page, id).getByTestId('step-time'), id).toHaveText(/^\d+(\.\d+)? (ms|s)$/)

  // The path runs from the slower search through merge to the rerank, the last step.
  for (const id of ['merge', 'rerank_all']) await expect(node(page, id)).toHaveAttribute('data-critical', 'true')
  const criticalSearches = await Promise.all(SEARCHES.map((id) => node(page, id).getAttribute('data-critical')))
  expect(
    criticalSearches.filter((c) => c === 'true'),
    JSON.stringify(criticalSearches),
  ).toHaveLength(1)
  await expect(page.locator('path[data-critical="true"]')).toHaveCount(2)

  // The run's totals: the local embedder's tokens, and what they cost.
  const totals = page.getByTestId('run-totals')
  await expect(totals).toContainText(/embed \d/)
  await expect(totals).toContainText('$0')

  // Each search embedded its query on the local model: free.
  for (const id of SEARCHES) await expect(node(page, id).getByTestId('step-cost'), id).toContainText('$0')

  // The choice is kept across a reload.
  await page.reload()
  await expect(runBar.getByRole('switch', { name: 'Cost & time' })).toBeChecked()
})
