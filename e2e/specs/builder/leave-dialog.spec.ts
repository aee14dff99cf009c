// Leaving a workflow with unsaved changes asks first, and Save is one of the answers: a built-in
// is saved as a new file (its name asked for), a file is saved over; then the page goes on.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { edit, editingToolbar, fillField, playgroundDir, select, title } from '../../support/builder'
import { expect, node, openWorkflow, regions, test } from '../../support/test'

test('the leave dialog saves — as a new file for a built-in, over the file for a file — then leaves', async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  await select(page, 'merge')
  await fillField(page, 'dedup_field', 'url')
  await expect(title(page)).toHaveText(/●/)

  // Another workflow from the library: asked first; Save asks for a file name.
  const { library } = regions(page)
  await library.getByRole('button', { name: /^Search with Fallback/ }).click()
  const leave = page.getByRole('dialog', { name: 'Save changes before leaving?' })
  await expect(leave.getByRole('button', { name: 'Discard changes' })).toBeVisible()
  await expect(leave.getByRole('button', { name: 'Keep editing' })).toBeVisible()
  await leave.getByRole('button', { name: 'Save' }).click()
  const saveAs = page.getByRole('dialog', { name: 'Save as' })
  await saveAs.getByRole('textbox', { name: 'File name' }).fill('mcs-leave')
  await saveAs.getByRole('button', { name: 'Save' }).click()
  await expect(title(page)).toHaveText('Search with Fallback')
  await expect(page).toHaveURL(/workflow=builtin%3Asearch-with-fallback/)
  const file = path.join(playgroundDir(), 'mcs-leave.vai-workflow.json')
  expect(JSON.parse(readFileSync(file, 'utf8')).steps[2].inputs.dedup_field).toBe('url')

  // The saved file, edited again and left with Done: Save writes over it, nothing is asked.
  await openWorkflow(page, 'file:mcs-leave.vai-workflow.json')
  await edit(page)
  await select(page, 'merge')
  await fillField(page, 'dedup_field', 'title')
  await editingToolbar(page).getByRole('button', { name: 'Done' }).click()
  await leave.getByRole('button', { name: 'Save' }).click()
  await expect(leave).toBeHidden()
  await expect(saveAs).toBeHidden()
  await expect(editingToolbar(page)).toBeHidden()
  await expect(node(page, 'merge')).toBeVisible()
  await expect(title(page)).toHaveText('Multi-Collection Search')
  expect(JSON.parse(readFileSync(file, 'utf8')).steps[2].inputs.dedup_field).toBe('title')
})
