// Edges run around the nodes, never behind one: in the default layout of every workflow the
// library ships, no edge's drawn path passes through a node's box. An edge pointed at or
// selected is drawn again above the nodes.
import { edit } from '../support/builder'
import { edgesCrossingNodes, waitForViewport } from '../support/canvas'
import { expect, openWorkflow, regions, test } from '../support/test'

test('no edge passes through a node in any shipped workflow', async ({ page, request }) => {
  test.setTimeout(120_000)
  const { workflows } = (await (await request.get('/api/workflows')).json()) as { workflows: { id: string; source: string }[] }
  const shipped = workflows.filter((w) => w.source === 'builtin' || w.source === 'example').map((w) => w.id)
  expect(shipped.length).toBeGreaterThan(10)
  const found: string[] = []
  for (const id of shipped) {
    await openWorkflow(page, id)
    await expect(regions(page).canvas.locator('.react-flow__edge').first()).toBeAttached()
    await waitForViewport(page)
    found.push(...(await edgesCrossingNodes(page)).map((c) => `${id}: ${c}`))
  }
  expect(found).toEqual([])
})

test('an edge pointed at, or selected, is drawn above the nodes', async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  const edge = page.getByRole('group', { name: 'Edge from merge to rerank_all' })
  const id = await edge.getAttribute('data-id')
  const raised = page.getByTestId(`edge-raised-${id}`)
  await expect(raised).toHaveCount(0)

  // The middle of the drawn path, on screen.
  const middle = await edge.locator('path.react-flow__edge-path').evaluate((path: SVGPathElement) => {
    const p = path.getPointAtLength(path.getTotalLength() / 2).matrixTransform(path.getScreenCTM()!)
    return { x: p.x, y: p.y }
  })
  await page.mouse.move(middle.x, middle.y)
  await expect(raised).toBeAttached()
  // In the layer over the nodes, as long as the pointer stays.
  expect(await raised.evaluate((el) => Number(getComputedStyle(el).zIndex))).toBeGreaterThan(1000)
  await page.mouse.move(5, 5)
  await expect(raised).toHaveCount(0)

  await edge.focus()
  await page.keyboard.press('Enter')
  await expect(raised).toBeAttached()
})
