// The inspector: selecting a node shows its tool and configured inputs; a template reference is
// a button that moves the selection to the step it names.
import { expect, node, openWorkflow, regions, test } from '../support/test'

test.beforeEach(async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
})

test('with nothing selected it describes the workflow and its inputs', async ({ page }) => {
  const { inspector } = regions(page)
  await expect(inspector.getByText('Multi-Collection Search').first()).toBeVisible()
  await expect(inspector.getByText(/Query two collections side by side/)).toBeVisible()
  for (const input of ['query', 'collection1', 'collection2', 'limit', 'top_k']) {
    await expect(inspector.getByText(input, { exact: true }).first()).toBeVisible()
  }
})

test('selecting a step shows its tool and configured inputs', async ({ page }) => {
  const { inspector } = regions(page)
  await node(page, 'merge').click()

  await expect(inspector.getByRole('heading', { name: 'Combine hits, one per source' })).toBeVisible()
  await expect(inspector.getByText(/\bmerge\b/i).first()).toBeVisible()
  await expect(inspector.getByText('Configured inputs')).toBeVisible()
  await expect(inspector.getByText('dedup_field').first()).toBeVisible()
  await expect(inspector.getByText('source', { exact: false }).first()).toBeVisible()
  // Before any run there is nothing to re-run from.
  await expect(inspector.getByRole('button', { name: 'Run this step' })).toBeDisabled()
})

test('clicking a template reference selects the step it names', async ({ page }) => {
  const { inspector } = regions(page)
  await node(page, 'merge').click()
  await expect(inspector.getByRole('heading', { name: 'Combine hits, one per source' })).toBeVisible()

  await inspector
    .getByRole('button', { name: /search_2/ })
    .first()
    .click()
  await expect(inspector.getByRole('heading', { name: 'Query the second collection' })).toBeVisible()
  await expect(inspector.getByText(/\bquery\b/i).first()).toBeVisible()

  // The same from another step: rerank_all reads merge.output.results. Jumping to search_2
  // centred the view on it, which can leave rerank_all under the inspector: fit the view first,
  // as a person would pan to it.
  await page.getByRole('button', { name: 'Fit view' }).click()
  await node(page, 'rerank_all').click()
  await expect(inspector.getByRole('heading', { name: 'Rerank the combined hits' })).toBeVisible()
  await inspector.getByRole('button', { name: /merge/ }).first().click()
  await expect(inspector.getByRole('heading', { name: 'Combine hits, one per source' })).toBeVisible()
})
