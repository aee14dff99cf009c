// The model steps' own editors: a router's routes (a route added through the form reaches the
// step's JSON and the canvas as a labelled edge; a step put in two routes is flagged where it is;
// a renamed step is renamed in the routes)
// and an evaluator's metrics (a new evaluator starts with one; one added through the form reaches
// the JSON; a min above its max is flagged inline).
import { addStep, download, edit, field, select } from '../../support/builder'
import { expect, node, openWorkflow, regions, test } from '../../support/test'

test("a route added through the router's form reaches the step and the canvas", async ({ page }) => {
  await openWorkflow(page, 'file:router-similarity.vai-workflow.json')
  await edit(page)
  await select(page, 'triage')
  const { inspector, canvas } = regions(page)
  await expect(inspector.getByRole('group', { name: 'Route billing' })).toBeVisible()

  await inspector.getByRole('button', { name: 'Add route' }).click()
  const added = inspector.getByRole('group', { name: 'Route route_1' })
  await added.getByRole('textbox', { name: /Route id/ }).fill('sales')
  const sales = inspector.getByRole('group', { name: 'Route sales' })
  await sales.getByRole('textbox', { name: 'Description' }).fill('Quotes, plans and prices')
  await sales.getByRole('combobox', { name: 'Steps' }).click()
  await page.getByRole('option', { name: 'refund_reply' }).click()

  // A step in two routes is flagged in both.
  await expect(sales.getByText('refund_reply is also in route billing: a step may be in one route only')).toBeVisible()
  await expect(inspector.getByRole('group', { name: 'Route billing' }).getByText('refund_reply is also in route sales')).toBeVisible()

  await inspector.getByRole('button', { name: 'Edit the step as JSON' }).click()
  const json = inspector.getByRole('textbox', { name: 'Step JSON' })
  await expect(json).toHaveValue(/"id": "sales",\s*"description": "Quotes, plans and prices",\s*"steps": \[\s*"refund_reply"\s*\]/)
  // The plan draws the new route as an edge labelled with its id.
  await expect(canvas.getByText('sales', { exact: true })).toBeVisible()
})

test("renaming a step follows it into the router's routes", async ({ page }) => {
  await openWorkflow(page, 'file:router-similarity.vai-workflow.json')
  await edit(page)
  await select(page, 'refund_reply')
  const id = field(page, 'Id')
  await id.fill('billing_reply')
  await id.press('Enter')
  await expect(node(page, 'billing_reply')).toBeVisible()
  const doc = JSON.parse((await download(page)).text)
  expect(doc.steps[0].inputs.routes[0].steps).toEqual(['billing_reply'])
  // The route's edge follows the new id.
  await expect(page.locator('.react-flow__edge[data-id*="billing_reply"]').first()).toBeAttached()
})

test("a metric added through an evaluator's form reaches the step, and min above max is flagged", async ({ page }) => {
  await openWorkflow(page, 'file:router-similarity.vai-workflow.json')
  await edit(page)
  await addStep(page, 'evaluator', 'evaluator_1')
  await select(page, 'evaluator_1')
  const { inspector } = regions(page)
  // A new evaluator starts with one metric in the default range.
  const quality = inspector.getByRole('group', { name: 'Metric quality' })
  await expect(quality.getByRole('textbox', { name: 'Min' })).toHaveValue('1')
  await expect(quality.getByRole('textbox', { name: 'Max' })).toHaveValue('5')

  await inspector.getByRole('button', { name: 'Add metric' }).click()
  const added = inspector.getByRole('group', { name: 'Metric metric_1' })
  await added.getByRole('textbox', { name: /Metric name/ }).fill('grounded')
  const grounded = inspector.getByRole('group', { name: 'Metric grounded' })
  await grounded.getByRole('textbox', { name: 'Max' }).fill('10')
  await grounded.getByRole('textbox', { name: 'Min' }).fill('11')
  await expect(grounded.getByText('min 11 is more than max 10')).toBeVisible()
  await grounded.getByRole('textbox', { name: 'Min' }).fill('0')
  await expect(grounded.getByText('min 11 is more than max 10')).toBeHidden()

  await inspector.getByRole('button', { name: 'Edit the step as JSON' }).click()
  await expect(inspector.getByRole('textbox', { name: 'Step JSON' })).toHaveValue(/"name": "grounded",\s*"range": \{\s*"min": 0,\s*"max": 10\s*\}/)
})
