// Connections that would close a loop are refused with the loop named; renaming a step
// rewrites every reference to it (templates, the output mapping) and keeps its edges.
import { connectMenu, download, dragConnection, edit, field, select, title } from '../../support/builder'
import { expect, node, openWorkflow, test } from '../../support/test'

test('a connection that would create a cycle is refused, naming the cycle', async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)

  await dragConnection(page, 'rerank_all', 'search_1')
  const menu = connectMenu(page)
  await expect(menu).toBeVisible()
  await menu.getByRole('button', { name: /^query \*/ }).click()
  await expect(menu.getByRole('alert')).toHaveText('That connection would create a cycle: rerank_all → search_1 → merge → rerank_all')
  // Refused: the menu stays open, nothing changed.
  await expect(menu).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(title(page)).toHaveText('Multi-Collection Search')
})

test('renaming a step rewrites every reference to it', async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  const edges = page.locator('.react-flow__edge')
  await expect(edges.first()).toBeVisible()
  const edgeCount = await edges.count()

  await select(page, 'merge')
  const id = field(page, 'Id')
  await id.fill('combined')
  await id.press('Enter')
  await expect(node(page, 'combined')).toBeVisible()
  await expect(node(page, 'merge')).toHaveCount(0)
  await expect(title(page)).toHaveText(/●/)
  // The edges into and out of it follow the new id.
  await expect(page.locator('.react-flow__edge[data-id*="combined"]').first()).toBeAttached()
  await expect(edges).toHaveCount(edgeCount)

  const doc = JSON.parse((await download(page)).text)
  expect(doc.steps.map((s: { id: string }) => s.id)).toEqual(['search_1', 'search_2', 'combined', 'rerank_all'])
  expect(doc.steps[3].inputs.documents).toBe('{{ combined.output.results }}')
  expect(doc.output.candidates).toBe('{{ combined.output.resultCount }}')
  expect(JSON.stringify(doc)).not.toMatch(/\bmerge\.output/)

  // A rename is one edit: undo restores the old id everywhere.
  await node(page, 'combined').click()
  await page.keyboard.press('Control+z')
  await expect(node(page, 'merge')).toBeVisible()
  await expect(title(page)).toHaveText('Multi-Collection Search')
})
