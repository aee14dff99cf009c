// A built-in opened in the builder, one value changed, undone and redone, then exported: the
// exported file is the original byte for byte except for that one value. Keys the builder does
// not know survive with their values; the top-level keys come out in the order of the stable
// form `vai workflow fmt` writes, as docs/builder.md says.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import type { WorkflowDocument } from '../../../web/src/api/types'
import { download, edit, fillField, playgroundDir, select, title, vai } from '../../support/builder'
import { expect, node, openWorkflow, regions, test } from '../../support/test'

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

test('unknown keys survive export; the top-level keys come in the stable form’s order, as fmt writes them', async ({ page }) => {
  const written = {
    'x-team': { owner: 'search', z: 1, a: 2 },
    name: 'Keyed',
    branding: { title: 'Keyed', color: '#123456' },
    steps: [{ tool: 'template', id: 'hi', inputs: { text: 'hi' } }],
    output: '{{ hi.output.text }}',
    formatters: {},
    $schema: 'https://vai.dev/schemas/workflow-v1.json',
  }
  await page.goto('/')
  await regions(page).library.getByRole('button', { name: 'Paste JSON' }).click()
  const paste = page.getByRole('dialog', { name: 'Paste a workflow' })
  await paste.getByRole('textbox', { name: 'Workflow JSON' }).fill(JSON.stringify(written, null, 2))
  await paste.getByRole('button', { name: 'Open' }).click()
  await expect(node(page, 'hi')).toBeVisible()
  await edit(page)

  const exported = (await download(page)).text
  const doc = JSON.parse(exported)
  // The known keys in writing order, then the others in the order they were written.
  expect(Object.keys(doc)).toEqual(['$schema', 'name', 'steps', 'output', 'x-team', 'branding', 'formatters'])
  expect(doc).toEqual(written)
  // Inside them nothing moves.
  expect(Object.keys(doc['x-team'])).toEqual(['owner', 'z', 'a'])
  expect(Object.keys(doc.steps[0])).toEqual(['tool', 'id', 'inputs'])
  // What was exported is what `vai workflow fmt` keeps.
  writeFileSync(path.join(playgroundDir(), 'keyed.vai-workflow.json'), exported)
  const fmt = vai(['workflow', 'fmt', '--check', 'keyed.vai-workflow.json'])
  expect(fmt.code, fmt.stdout + fmt.stderr).toBe(0)
})
