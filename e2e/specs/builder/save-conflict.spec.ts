// The file changes on disk while it is open in the builder (someone edits it in a text editor):
// Save is refused with a conflict the UI explains, nothing on disk is overwritten until the
// person chooses to, and "Save anyway" then writes their version.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { edit, fillField, playgroundDir, select, title } from '../../support/builder'
import { expect, openWorkflow, test } from '../../support/test'

test('saving over a file changed on disk is refused with a conflict, then saved on request', async ({ page, request }) => {
  // A file of our own in the playground's directory, so no other spec sees it change.
  const name = 'conflict-check.vai-workflow.json'
  const file = path.join(playgroundDir(), name)
  const builtin = await (await request.get('/api/workflows/builtin:multi-collection-search')).json()
  writeFileSync(file, builtin.text.replace('"Multi-Collection Search"', '"Conflict Check"'))

  await openWorkflow(page, `file:${name}`)
  await edit(page)
  await select(page, 'merge')
  await fillField(page, 'dedup_field', 'url')
  await expect(title(page)).toHaveText(/Conflict Check.*●/)

  // Behind the editor's back.
  const theirs = readFileSync(file, 'utf8').replace('"Hits to fetch from each collection"', '"Hits per collection"')
  writeFileSync(file, theirs)

  await page.getByRole('button', { name: 'Save', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: `${name} changed on disk` })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('changed outside the playground since you opened it')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  // Refused: their edit is on disk untouched, ours still unsaved in the editor.
  expect(readFileSync(file, 'utf8')).toBe(theirs)
  await expect(title(page)).toHaveText(/●/)

  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await dialog.getByRole('button', { name: 'Save anyway' }).click()
  await expect(dialog).toBeHidden()
  await expect(title(page)).toHaveText('Conflict Check')
  const saved = readFileSync(file, 'utf8')
  expect(saved).toContain('"dedup_field": "url"')
  expect(saved).toContain('"Hits to fetch from each collection"')
})
