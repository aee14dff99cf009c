// A run that waits for a person: the example "Ingest With Approval" stops at its `yield` step,
// the canvas shows that step waiting, the inspector's answer form sends the answer, and the
// same run goes on to store the document.
import { expect, node, recordStatuses, recordedStatuses, regions, runStatus, test } from '../support/test'

test('a yield step waits for the answer form, then the run goes on and stores', async ({ page }, testInfo) => {
  await page.goto('/')
  const { library, runBar, inspector } = regions(page)
  // .first(): once opened, a workflow is also listed under "Recent".
  await library
    .getByRole('button', { name: /^Ingest With Approval/ })
    .first()
    .click()
  await expect(page).toHaveURL(/[?&]workflow=example(:|%3A)ingest-with-approval/)
  await expect(node(page, 'approve')).toHaveAttribute('data-status', 'idle')

  await runBar.getByRole('textbox', { name: /^text/ }).fill('Approval e2e: a short note about onboarding checklists for new engineers.')
  await recordStatuses(page)
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()

  // The run stops at the yield step: it waits for a person, and nothing after it has run.
  await expect(runStatus(page)).toHaveText('Waiting for input', { timeout: 60_000 })
  await expect(node(page, 'preview')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'approve')).toHaveAttribute('data-status', 'waiting')
  await expect(node(page, 'approve')).toContainText('Waiting for a person')
  await expect(node(page, 'approve')).toHaveAttribute('title', /Waiting for a person/)
  await expect(node(page, 'store')).not.toHaveAttribute('data-status', 'completed')

  const form = inspector.getByRole('form', { name: 'Answer' })
  await expect(inspector.getByText(/Store \d+ chunk\(s\) from "pasted-text"\?/)).toBeVisible()
  await form.getByLabel('store *').check()
  await form.getByRole('textbox', { name: 'note' }).fill('checked by the e2e spec')
  await form.getByRole('button', { name: 'Submit' }).click()

  // The same run goes on: approved, so the document is stored.
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
  await expect(node(page, 'approve')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'decide')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'store')).toHaveAttribute('data-status', 'completed')
  await expect(inspector.getByTestId('answer-form')).toHaveCount(0)
  await expect(inspector.getByText(/checked by the e2e spec/).first()).toBeVisible()

  const seen = await recordedStatuses(page)
  testInfo.annotations.push({ type: 'statuses seen', description: JSON.stringify(seen) })
  expect(seen.steps.approve).toContain('waiting')
  expect(seen.run).toContain('Waiting for input')
  expect(seen.run[seen.run.length - 1]).toBe('Completed')
})
