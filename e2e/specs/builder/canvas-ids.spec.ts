// A rename shows at once on the canvas as well as in the document: the edges into and out of a
// renamed step are named by its new id (the builder keeps the node's React Flow key, so that a
// rename redraws in place, but nothing a person or a screen reader meets carries the old id).
import { edit, field, select } from '../../support/builder'
import { expect, node, openWorkflow, test } from '../../support/test'

test("a renamed step's edges are named by its new id, and back after undo", async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  const edge = (from: string, to: string) => page.getByRole('group', { name: `Edge from ${from} to ${to}`, exact: true })
  await expect(edge('merge', 'rerank_all')).toHaveCount(1)
  await expect(edge('search_1', 'merge')).toHaveCount(1)

  await select(page, 'merge')
  const id = field(page, 'Id')
  await id.fill('combined')
  await id.press('Enter')
  await expect(node(page, 'combined')).toBeVisible()
  await expect(edge('combined', 'rerank_all')).toHaveCount(1)
  await expect(edge('search_1', 'combined')).toHaveCount(1)
  await expect(edge('combined', '__output')).toHaveCount(1)
  await expect(page.getByRole('group', { name: /\bmerge\b/ })).toHaveCount(0)

  await node(page, 'combined').click()
  await page.keyboard.press('Control+z')
  await expect(node(page, 'merge')).toBeVisible()
  await expect(edge('merge', 'rerank_all')).toHaveCount(1)
  await expect(page.getByRole('group', { name: /\bcombined\b/ })).toHaveCount(0)
})
