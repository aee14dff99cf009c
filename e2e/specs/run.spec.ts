// Running a built-in offline: node statuses change live while it runs, the run ends
// "Completed", and the output is shown in the inspector.
import { expect, node, openWorkflow, recordStatuses, recordedStatuses, regions, runStatus, test } from '../support/test'

const STEPS = ['search_1', 'search_2', 'merge', 'rerank_all']

test('multi-collection-search runs offline with live node statuses', async ({ page }, testInfo) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  const { runBar, inspector } = regions(page)
  await expect(runStatus(page)).toHaveText('Ready')
  for (const id of STEPS) await expect(node(page, id)).toHaveAttribute('data-status', 'idle')

  await runBar.getByRole('textbox', { name: /^query/ }).fill('how does authentication work')
  await recordStatuses(page)
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()

  // The first run loads the local model and seeds the sample knowledge base.
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
  for (const id of STEPS) {
    await expect(node(page, id)).toHaveAttribute('data-status', 'completed')
    await expect(node(page, id)).toContainText(/\d+(\.\d+)?\s*(ms|s)\b/)
  }
  await expect(page.getByTestId('run-elapsed')).toHaveText(/\d/)

  // Seen live: the statuses went through more than their final state.
  const seen = await recordedStatuses(page)
  testInfo.annotations.push({ type: 'statuses seen', description: JSON.stringify(seen) })
  const sawRunning = STEPS.some((id) => seen.steps[id]?.includes('running'))
  const changed = STEPS.filter((id) => (seen.steps[id]?.length ?? 0) > 1)
  expect(sawRunning || changed.length === STEPS.length, JSON.stringify(seen)).toBeTruthy()
  expect(seen.run).toContain('Running')
  expect(seen.run[seen.run.length - 1]).toBe('Completed')

  // The workflow's final output, with nothing selected.
  await expect(inspector.getByText('Final output')).toBeVisible()
  await expect(inspector.getByText(/resultCount/).first()).toBeVisible()

  // A step's resolved inputs and output once it has run.
  await node(page, 'rerank_all').click()
  await expect(inspector.getByRole('heading', { name: 'Rerank the combined hits' })).toBeVisible()
  await expect(inspector.getByText('Resolved inputs')).toBeVisible()
  await expect(inspector.getByText('Output', { exact: true }).first()).toBeVisible()
  await expect(inspector.getByText(/how does authentication work/).first()).toBeVisible()
  await expect(inspector.getByRole('button', { name: 'Run this step' })).toBeEnabled()

  const shot = testInfo.outputPath('multi-collection-search-run.png')
  await page.screenshot({ path: shot, fullPage: true })
  await testInfo.attach('finished run', { path: shot, contentType: 'image/png' })
})
