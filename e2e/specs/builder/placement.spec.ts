// New nodes land in free space: pasted steps near the pointer (or beside what they were copied
// from), and the steps of an imported file that its `ui.positions` does not place beside their
// sources — never on top of another node.
import { fileURLToPath } from 'node:url'
import { edit, select } from '../../support/builder'
import { canvasRects, overlappingNodes } from '../../support/canvas'
import { expect, node, openWorkflow, regions, test } from '../../support/test'

const partialPath = fileURLToPath(new URL('../../fixtures/partial-positions.vai-workflow.json', import.meta.url))

test('pasted steps do not land on existing nodes', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  const nodes = page.locator('main[aria-label="Canvas"] .react-flow__node')
  const before = await nodes.count()

  await select(page, 'search_1')
  await page.keyboard.press('Control+c')
  // Paste with the pointer over another step: the pasted one goes to the free space nearest it.
  const merge = (await canvasRects(page)).nodes.merge
  await page.mouse.move((merge.left + merge.right) / 2, (merge.top + merge.bottom) / 2)
  await page.keyboard.press('Control+v')
  await expect(nodes).toHaveCount(before + 1)
  expect(await overlappingNodes(page)).toEqual([])

  // Duplicating it again, twice: each copy beside the last, none on another.
  await page.keyboard.press('Control+d')
  await expect(nodes).toHaveCount(before + 2)
  await page.keyboard.press('Control+d')
  await expect(nodes).toHaveCount(before + 3)
  expect(await overlappingNodes(page)).toEqual([])
})

test('importing a file that places only some steps puts the others in free space', async ({ page }) => {
  await page.goto('/')
  await regions(page).library.getByLabel('Workflow file').setInputFiles(partialPath)
  await expect(node(page, 'joined')).toBeVisible()
  await edit(page)
  await expect(node(page, 'final')).toBeVisible()
  expect(await overlappingNodes(page)).toEqual([])
  // The placed steps keep their places: `final` 204 right of `joined`, as the file says.
  const { nodes } = await canvasRects(page)
  const zoom = (nodes.joined.right - nodes.joined.left) / 188
  expect((nodes.final.left - nodes.joined.left) / zoom).toBeCloseTo(204, 0)
})
