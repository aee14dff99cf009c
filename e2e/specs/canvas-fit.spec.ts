// Fit view shows a workflow of up to about twelve steps whole and legible (titles at least
// 11 px) on a 1024×768 screen — laid out compactly, wrapped onto rows when one row is too wide —
// in view and in edit mode; a larger one stays legible and is panned.
import { edit } from '../support/builder'
import { canvasRects, expectShownWhole, expectTitlesLegible, LEGIBLE_PX, titlePx } from '../support/canvas'
import { expect, node, openWorkflow, regions, test } from '../support/test'

const MULTI = 'builtin:multi-collection-search'
const TWELVE = 'file:twelve-steps.vai-workflow.json'

test.describe('at 1024×768', () => {
  test.use({ viewport: { width: 1024, height: 768 } })

  for (const id of [MULTI, TWELVE]) {
    test(`${id} is shown whole with legible titles`, async ({ page }) => {
      await openWorkflow(page, id)
      await expectShownWhole(page)
      await expectTitlesLegible(page)
      // Fit view after zooming in brings back the same.
      for (let i = 0; i < 3; i++) await regions(page).canvas.getByRole('button', { name: 'Zoom In' }).click()
      await regions(page).canvas.getByRole('button', { name: 'Fit view' }).click()
      await expectShownWhole(page)
      await expectTitlesLegible(page)
    })
  }

  test('the twelve steps read in order: wrapped rows, each left to right', async ({ page }) => {
    await openWorkflow(page, TWELVE)
    await expectShownWhole(page)
    const { nodes } = await canvasRects(page)
    // The last step sits below the first (a second row), not beyond the right edge.
    expect(nodes.sign_off.top).toBeGreaterThan(nodes.search_api.bottom)
    expect(nodes.merge_hits.left).toBeGreaterThan(nodes.search_api.right)
  })
})

test.describe('at 1440×900', () => {
  test('Multi-Collection Search is shown whole between the library and the inspector, its output included', async ({ page }) => {
    await openWorkflow(page, MULTI)
    await expectShownWhole(page)
    await expectTitlesLegible(page)
    await expect(node(page, '__output')).toBeInViewport({ ratio: 0.99 })
  })

  test('the builder fits legibly too, the whole workflow in view', async ({ page }) => {
    await openWorkflow(page, MULTI)
    await edit(page)
    await expectShownWhole(page)
    await expectTitlesLegible(page)
    await page.getByRole('toolbar', { name: 'Editing' }).getByRole('button', { name: 'Fit view' }).click()
    await expectShownWhole(page)
    expect(Math.min(...(await titlePx(page)))).toBeGreaterThanOrEqual(LEGIBLE_PX - 0.05)
  })
})
