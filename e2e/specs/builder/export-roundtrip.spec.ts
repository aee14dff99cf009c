// A built-in opened in the builder, one value changed, undone and redone, then exported: the
// exported file is the original byte for byte except for that one value.
import type { WorkflowDocument } from '../../../web/src/api/types'
import { download, edit, fillField, select, title } from '../../support/builder'
import { expect, node, openWorkflow, test } from '../../support/test'

test('export after an edit, undo and redo differs from the built-in only where it was edited', async ({ page, request }) => {
  const original = (await (await request.get('/api/workflows/builtin:multi-collection-search')).json()) as WorkflowDocument
  await openWorkflow(page, 'builtin:multi-collection-search')
  await edit(page)
  await expect(title(page)).toHaveText('Multi-Collection Search')

  // Exported untouched: the same bytes as the file.
  expect((await download(page)).text).toBe(original.text)

  await select(page, 'merge')
  await fillField(page, 'dedup_field', 'url')
  await expect(title(page)).toHaveText(/●/)
  await expect(node(page, 'merge')).toBeVisible()

  // Undo and redo from the canvas (not a field: there the keys edit the text).
  await node(page, 'merge').click()
  await page.keyboard.press('Control+z')
  await expect(title(page)).toHaveText('Multi-Collection Search')
  await page.keyboard.press('Control+Shift+z')
  await expect(title(page)).toHaveText(/●/)

  const exported = await download(page)
  expect(exported.name).toBe('multi-collection-search.vai-workflow.json')
  const before = original.text.split('\n')
  const after = exported.text.split('\n')
  expect(after).toHaveLength(before.length)
  const changed = before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]]))
  expect(changed).toEqual([['        "dedup_field": "source"', '        "dedup_field": "url"']])
})
