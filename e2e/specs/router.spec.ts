// A router that chooses by similarity, offline: its two routes are drawn as labelled edges, the
// route it did not take is drawn skipped with the router's reason, and the inspector says which
// route it took, why, and how close each route was.
import { expect, node, nodeText, openWorkflow, regions, runStatus, test } from '../support/test'

const FIXTURE = 'file:router-similarity.vai-workflow.json'

test("a router's untaken route is drawn skipped, with the reason", async ({ page }, testInfo) => {
  await openWorkflow(page, FIXTURE)
  const { canvas, runBar, inspector } = regions(page)
  // One labelled edge per route.
  await expect(canvas.getByText('billing', { exact: true })).toBeVisible()
  await expect(canvas.getByText('technical', { exact: true })).toBeVisible()
  await expect(canvas.locator('path[data-kind="route"]')).toHaveCount(2)

  await runBar.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
  await expect(node(page, 'triage')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'refund_reply')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'debug_reply')).toHaveAttribute('data-status', 'skipped')
  await expect.poll(() => nodeText(node(page, 'debug_reply'))).toContain('router "triage" chose "billing"')

  const shot = testInfo.outputPath('router-run.png')
  await page.screenshot({ path: shot })
  await testInfo.attach('router run', { path: shot, contentType: 'image/png' })

  await node(page, 'triage').click()
  await expect(inspector.getByTestId('route-chosen')).toContainText('Took billing, chosen by similarity')
  const scores = inspector.getByRole('table', { name: 'Route scores' })
  await expect(scores.getByRole('row')).toHaveCount(3)
  await expect(scores.getByRole('row').nth(1)).toContainText('billing')

  await node(page, 'debug_reply').click()
  await expect(inspector.getByText('Skipped: router "triage" chose "billing"')).toBeVisible()
})
