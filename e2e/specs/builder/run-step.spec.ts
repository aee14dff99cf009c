// "Run this step" in the builder: at the top of the step's form, ready before any run for a step
// that reads only workflow inputs, and after it the steps it reused say so instead of "0 ms".
import type { HistoryList } from '../../../web/src/api/types'
import { edit, field, select } from '../../support/builder'
import { expect, node, nodeText, openWorkflow, regions, runStatus, test } from '../../support/test'

test('before any run, a step that reads only workflow inputs runs on its own', async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  const { inspector, runBar } = regions(page)
  await runBar.getByRole('textbox', { name: /^query/ }).fill('how does authentication work')

  // A step that reads another step waits for a first run, and says which.
  await select(page, 'merge')
  const runStep = inspector.getByRole('button', { name: 'Run this step' })
  await expect(runStep).toBeDisabled()
  await expect(inspector.getByLabel('Run the workflow once first: this step reads from search_1, search_2')).toBeVisible()

  await select(page, 'search_1')
  await expect(field(page, 'Id')).toHaveValue('search_1')
  // At the top: above the step's form, not below its retry and timeout settings.
  const button = (await runStep.boundingBox())!
  const id = (await field(page, 'Id').boundingBox())!
  expect(button.y).toBeLessThan(id.y)
  await expect(runStep).toBeEnabled()
  await runStep.click()

  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
  await expect(node(page, 'search_1')).toHaveAttribute('data-status', 'completed')
  for (const other of ['search_2', 'merge', 'rerank_all']) await expect(node(page, other)).toHaveAttribute('data-status', 'skipped')
})

test('after "Run this step", the steps it reused say "reused from run …", not "0 ms"', async ({ page, request }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  const { inspector, runBar } = regions(page)
  // A query of its own: specs run side by side, so the newest run need not be this one.
  const query = `how does authentication work ${Date.now().toString(36)}`
  await runBar.getByRole('textbox', { name: /^query/ }).fill(query)
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
  const { runs } = (await (await request.get('/api/history?workflowId=builtin%3Amulti-collection-search')).json()) as HistoryList
  const first = runs.find((r) => r.inputs.includes(query))?.runId
  expect(first, 'the run just made is in the history').toBeTruthy()

  await select(page, 'rerank_all')
  await inspector.getByRole('button', { name: 'Run this step' }).click()
  // Replayed steps complete at once: the new run may finish before "Running" is seen.
  await expect(node(page, 'search_1').getByTestId('step-reused')).toBeVisible({ timeout: 60_000 })
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })

  for (const id of ['search_1', 'search_2', 'merge']) {
    await expect(node(page, id)).toHaveAttribute('data-status', 'completed')
    await expect(node(page, id).getByTestId('step-reused')).toHaveText('reused')
    await expect(node(page, id).getByTestId('step-reused')).toHaveAttribute('title', `reused from run ${first}`)
    expect(await nodeText(node(page, id))).not.toMatch(/\d\s*ms\b/)
  }
  // The step that ran shows its time.
  await expect(node(page, 'rerank_all').getByTestId('step-time')).toHaveText(/\d+(\.\d+)?\s*(ms|s)\b/)

  await select(page, 'merge')
  await expect(inspector.getByTestId('step-run-facts')).toHaveText(`Completed · reused from run ${first}, not run again`)
})
