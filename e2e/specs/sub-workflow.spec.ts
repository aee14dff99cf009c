// Sub-workflows on the canvas: a `workflow` step opens the child it calls in place of the
// calling graph, under a breadcrumb whose first item goes back.
import { expect, node, openWorkflow, planOf, regions, test } from '../support/test'

test('the book step of Trip Booking Saga opens hold-seat, and the breadcrumb goes back', async ({ page, request }, testInfo) => {
  const child = await planOf(request, 'example:hold-seat')
  const childSteps = child.nodes.filter((n) => n.kind === 'step').map((n) => n.id)
  expect(childSteps).toEqual(['hold', 'held'])

  await page.goto('/')
  const { library, canvas } = regions(page)
  await library
    .getByRole('button', { name: /^Trip Booking Saga/ })
    .first()
    .click()
  await expect(node(page, 'book')).toBeVisible()
  const breadcrumb = canvas.getByRole('navigation', { name: 'Sub-workflow' })
  await expect(breadcrumb).toHaveCount(0)
  // Only the `workflow` step has the button.
  await expect(canvas.getByRole('button', { name: /^Open sub-workflow/ })).toHaveCount(1)

  await node(page, 'book').getByRole('button', { name: 'Open sub-workflow hold-seat' }).click()
  await expect(breadcrumb).toBeVisible()
  await expect(breadcrumb).toContainText('Trip Booking Saga')
  await expect(breadcrumb).toContainText('book (hold-seat)')
  await expect(breadcrumb.getByText('book (hold-seat)')).toHaveAttribute('aria-current', 'page')
  for (const id of childSteps) await expect(node(page, id)).toBeVisible()
  await expect(canvas.locator('[data-testid^="node-"]')).toHaveCount(child.nodes.length)
  await expect(node(page, 'book')).toHaveCount(0)
  await expect(node(page, 'hold')).toHaveAttribute('data-status', 'idle')
  const shot = testInfo.outputPath('hold-seat-opened.png')
  await page.screenshot({ path: shot })
  await testInfo.attach('hold-seat opened from book', { path: shot, contentType: 'image/png' })

  await breadcrumb.getByRole('button', { name: 'Trip Booking Saga' }).click()
  await expect(breadcrumb).toHaveCount(0)
  await expect(node(page, 'book')).toBeVisible()
  await expect(node(page, 'pay')).toBeVisible()
  await expect(node(page, 'hold')).toHaveCount(0)
  // Still the saga's page: going into a sub-workflow is not a navigation.
  await expect(page).toHaveURL(/[?&]workflow=example(:|%3A)trip-booking-saga/)
})
