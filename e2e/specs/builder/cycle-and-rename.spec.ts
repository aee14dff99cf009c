// Connections that would close a loop are refused while dragged, with the loop named; renaming a step
// rewrites every reference to it (templates, the output mapping) and keeps its edges.
import { connectMenu, download, dragOver, edit, field, flowNode, select, startConnection, title } from '../../support/builder'
import { expect, node, openWorkflow, test } from '../../support/test'

test('a connection that would create a cycle is refused while it is dragged, naming the cycle', async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  const reason = 'That connection would create a cycle: rerank_all → search_1 → merge → rerank_all'

  // Over the node, before anything is released or picked: refused, with the reason.
  await startConnection(page, 'rerank_all')
  await dragOver(page, node(page, 'search_1'))
  await expect(page.getByRole('tooltip')).toHaveText(reason)
  await expect(flowNode(page, 'search_1')).toHaveAttribute('title', reason)
  await expect(flowNode(page, 'search_1')).toHaveAttribute('data-refused', 'true')
  // Its input handle is not offered either.
  const handle = flowNode(page, 'search_1').locator('.react-flow__handle.target')
  await dragOver(page, handle)
  await expect(handle).toHaveClass(/\bconnectingto\b/)
  await expect(handle).not.toHaveClass(/\bvalid\b/)

  // Released there: no menu, nothing changed, and the reason stays in view.
  await page.mouse.up()
  await expect(connectMenu(page)).toBeHidden()
  await expect(page.getByRole('tooltip')).toBeHidden()
  await expect(flowNode(page, 'search_1')).not.toHaveAttribute('data-refused', 'true')
  await expect(page.getByTestId('editor-notice')).toHaveText(reason)
  await expect(title(page)).toHaveText('Multi-Collection Search')

  // A connection that closes no cycle is offered: its handle is valid, and releasing opens the menu.
  await startConnection(page, 'search_1')
  const other = flowNode(page, 'search_2').locator('.react-flow__handle.target')
  await dragOver(page, other)
  await expect(other).toHaveClass(/\bvalid\b/)
  await expect(page.getByRole('tooltip')).toBeHidden()
  await page.mouse.up()
  await expect(connectMenu(page)).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(connectMenu(page)).toBeHidden()
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
