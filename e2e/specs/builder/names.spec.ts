// Names: saving an untitled workflow offers to name it, and wherever a file is listed — the
// title bar, the library, Recent — its file name stands beside the workflow's name, once.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { addStep, edit, editingToolbar, playgroundDir, title } from '../../support/builder'
import { expect, node, regions, test } from '../../support/test'

test('saving an untitled workflow offers its name; the title, the library and Recent show it with the file name', async ({ page }) => {
  await page.goto('/')
  const { library } = regions(page)
  await library.getByRole('button', { name: 'New workflow' }).click()
  await page.getByRole('menuitem', { name: /^Empty workflow/ }).click()
  await addStep(page, 'query', 'query_1')
  await expect(title(page)).toHaveText(/Untitled workflow.*●/)

  await page.keyboard.press('Control+s')
  const dialog = page.getByRole('dialog', { name: 'Save as' })
  await dialog.getByRole('textbox', { name: 'Workflow name' }).fill('Walk search')
  // The file name follows the name.
  await expect(dialog.getByRole('textbox', { name: 'File name' })).toHaveValue('walk-search')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()

  await expect(title(page)).toHaveText('Walk search')
  await expect(page.getByTestId('workflow-file')).toHaveText('walk-search.vai-workflow.json')
  await expect(page).toHaveTitle(/^Walk search/)
  expect(JSON.parse(readFileSync(path.join(playgroundDir(), 'walk-search.vai-workflow.json'), 'utf8')).name).toBe('Walk search')

  const listed = library.getByRole('button', { name: /^Walk search/ }).and(library.getByRole('button', { name: /walk-search\.vai-workflow\.json/ }))
  await expect(listed.filter({ hasText: '1 step' })).toHaveCount(1)
  const recent = library.getByRole('button', { name: /^Recent: / })
  await expect(recent).toHaveCount(1)
  await expect(recent).toHaveAccessibleName('Recent: Walk search')
  await expect(recent).toContainText('walk-search.vai-workflow.json')

  // Still once after Done and after a reload.
  await editingToolbar(page).getByRole('button', { name: 'Done' }).click()
  await expect(node(page, 'query_1')).toBeVisible()
  await expect(recent).toHaveCount(1)
  await page.reload()
  await expect(node(page, 'query_1')).toBeVisible()
  await expect(recent).toHaveCount(1)
  await expect(title(page)).toHaveText('Walk search')
  await expect(page.getByTestId('workflow-file')).toHaveText('walk-search.vai-workflow.json')
})

test('pasted JSON saved as a file is one Recent entry, the file', async ({ page }) => {
  await page.goto('/')
  const { library } = regions(page)
  await library.getByRole('button', { name: 'Paste JSON' }).click()
  const paste = page.getByRole('dialog', { name: 'Paste a workflow' })
  await paste
    .getByRole('textbox', { name: 'Workflow JSON' })
    .fill(JSON.stringify({ name: 'Pasted flow', steps: [{ id: 'hi', tool: 'template', inputs: { text: 'hi' } }] }))
  await paste.getByRole('button', { name: 'Open' }).click()
  await expect(node(page, 'hi')).toBeVisible()
  const recent = library.getByRole('button', { name: /^Recent: / })
  await expect(recent).toHaveAccessibleName('Recent: Pasted flow')
  await expect(recent).toContainText('pasted or dropped')

  await edit(page)
  await page.keyboard.press('Control+s')
  const dialog = page.getByRole('dialog', { name: 'Save as' })
  // It has a name: only the file name is asked for.
  await expect(dialog.getByRole('textbox', { name: 'Workflow name' })).toHaveCount(0)
  await expect(dialog.getByRole('textbox', { name: 'File name' })).toHaveValue('pasted-flow')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()

  await expect(recent).toHaveCount(1)
  await expect(recent).toHaveAccessibleName('Recent: Pasted flow')
  await expect(recent).toContainText('pasted-flow.vai-workflow.json')
})
