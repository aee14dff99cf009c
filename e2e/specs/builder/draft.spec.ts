// Unsaved changes survive a reload: the page asks before leaving, and the next load restores the
// draft from local storage with an offer to discard it.
import { download, edit, editingToolbar, field, fillField, select, title } from '../../support/builder'
import { expect, node, openWorkflow, test } from '../../support/test'

test('reloading with unsaved changes brings the draft back, and it can be discarded', async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  await select(page, 'merge')
  await fillField(page, 'dedup_field', 'url')
  await expect(title(page)).toHaveText(/●/)

  // The browser's "leave site?" prompt guards the reload; the person goes on.
  let prompted = false
  page.once('dialog', (dialog) => {
    prompted = dialog.type() === 'beforeunload'
    void dialog.accept()
  })
  await page.reload()
  expect(prompted).toBe(true)

  // Back in edit mode with the change, and told where it came from.
  await expect(editingToolbar(page)).toBeVisible()
  const restored = page.getByTestId('draft-restored')
  await expect(restored).toContainText('were restored from this browser')
  await expect(title(page)).toHaveText(/Multi-Collection Search.*●/)
  await select(page, 'merge')
  await expect(field(page, 'dedup_field')).toHaveValue('url')
  expect(JSON.parse((await download(page)).text).steps[2].inputs.dedup_field).toBe('url')

  // Discarding returns to the workflow as stored.
  await restored.getByRole('button', { name: 'Discard changes' }).click()
  await expect(title(page)).toHaveText('Multi-Collection Search')
  await expect(node(page, 'merge')).toBeVisible()
  await select(page, 'merge')
  await expect(field(page, 'dedup_field')).toHaveValue('source')
})
