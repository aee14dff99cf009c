// Paste JSON: text that is not valid JSON keeps the dialog and the text open, with the error's
// line and column, outside edit mode and in it.
import { edit, editingToolbar } from '../../support/builder'
import { expect, node, openWorkflow, regions, test } from '../../support/test'

// A trailing comma on line 4, column 18.
const BROKEN = '{\n  "name": "Broken",\n  "steps": [\n    { "id": "a", }\n  ]\n}\n'

async function pasteBroken(page: import('@playwright/test').Page) {
  await regions(page).library.getByRole('button', { name: 'Paste JSON' }).click()
  const dialog = page.getByRole('dialog', { name: 'Paste a workflow' })
  const text = dialog.getByRole('textbox', { name: 'Workflow JSON' })
  await text.fill(BROKEN)
  await dialog.getByRole('button', { name: 'Open' }).click()
  await expect(dialog.getByRole('alert')).toContainText(/not valid JSON at line 4:18/)
  // Nothing was opened: the dialog and the text are still there to be corrected.
  await expect(dialog).toBeVisible()
  await expect(text).toHaveValue(BROKEN)
  return { dialog, text }
}

test('invalid JSON keeps the dialog and the text, with the error; corrected, it opens', async ({ page }) => {
  await page.goto('/')
  const { dialog, text } = await pasteBroken(page)
  await text.fill(BROKEN.replace('"a", }', '"a", "tool": "template", "inputs": { "text": "hi" } }'))
  await expect(dialog.getByRole('alert')).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Open' }).click()
  await expect(dialog).toBeHidden()
  await expect(node(page, 'a')).toBeVisible()
})

test('in edit mode too, the document stays and the dialog keeps the text', async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  const { dialog } = await pasteBroken(page)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(editingToolbar(page)).toBeVisible()
  await expect(node(page, 'merge')).toBeVisible()
})
