// Failed and skipped steps: a step that fails offline (generate with no LLM configured) shows
// as failed with its error; the branch a conditional did not take shows as skipped with why.
import { expect, node, nodeText, openWorkflow, regions, runStatus, test } from '../support/test'

test('a failing step is shown failed, with its error, and fails the run', async ({ page }) => {
  await openWorkflow(page, 'file:failing-step.vai-workflow.json')
  const { runBar, inspector } = regions(page)
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()

  await expect(runStatus(page)).toHaveText('Failed')
  await expect(node(page, 'prepare')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'answer')).toHaveAttribute('data-status', 'failed')
  await expect.poll(() => nodeText(node(page, 'answer'))).toContain('no LLM provider is configured')

  await node(page, 'answer').click()
  await expect(inspector.getByRole('heading', { name: 'Ask the LLM' })).toBeVisible()
  await expect(inspector.getByText(/no LLM provider is configured/).first()).toBeVisible()
})

test('the branch not taken is shown skipped, with the reason', async ({ page }) => {
  await openWorkflow(page, 'file:skipped-branch.vai-workflow.json')
  const { runBar, inspector } = regions(page)
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()

  await expect(runStatus(page)).toHaveText('Completed')
  await expect(node(page, 'decide')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'short_text')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'long_text')).toHaveAttribute('data-status', 'skipped')
  await expect.poll(() => nodeText(node(page, 'long_text'))).toContain('conditional branch not taken')

  await node(page, 'long_text').click()
  await expect(inspector.getByRole('heading', { name: 'Long answer' })).toBeVisible()
  await expect(inspector.getByText(/conditional branch not taken/).first()).toBeVisible()
})
