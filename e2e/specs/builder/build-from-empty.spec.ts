// Building Multi-Collection Search from an empty canvas with the mouse and the keyboard only —
// two query steps, a merge, a rerank, the inputs and the output — then saving it, and checking
// with the CLI that the file on disk is valid and runs on the offline default.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { addStep, connect, fillField, playgroundDir, select, title, vai } from '../../support/builder'
import { expect, node, regions, test } from '../../support/test'

test('Multi-Collection Search built from an empty canvas is saved valid and runs', async ({ page }) => {
  await page.goto('/')
  const { library, inspector } = regions(page)
  await library.getByRole('button', { name: 'New workflow' }).click()
  await page.getByRole('menuitem', { name: /^Empty workflow/ }).click()
  await expect(page.getByRole('toolbar', { name: 'Editing' })).toBeVisible()
  await expect(title(page)).toHaveText(/Untitled workflow.*●/)

  // The workflow's settings: its name and the query input.
  await fillField(page, 'Name', 'Two Collections')
  await inspector.getByRole('button', { name: 'Add input' }).click()
  const row = inspector.getByRole('group', { name: 'Input input' })
  await row.getByRole('textbox', { name: 'Name', exact: true }).fill('query')
  await row.getByRole('textbox', { name: 'Name', exact: true }).press('Enter')
  const query = inspector.getByRole('group', { name: 'Input query' })
  await expect(query).toBeVisible()
  await query.getByLabel('Required').check()

  // Four steps from the palette, by keyboard; each gets a readable id.
  await addStep(page, 'query', 'query_1')
  await addStep(page, 'query', 'query_2')
  await addStep(page, 'merge', 'merge_1')
  await addStep(page, 'rerank', 'rerank_1')
  await page.getByRole('button', { name: 'Re-layout' }).click()

  // Wired with the mouse: the query into both searches and the rerank, both result lists
  // appended to the merge, the merged list reranked, the reranked list as the output.
  await connect(page, '__inputs', 'query_1', /^query \*/, 'inputs.query')
  await connect(page, '__inputs', 'query_2', /^query \*/, 'inputs.query')
  await connect(page, 'query_1', 'merge_1', /^arrays \*/, 'query_1.output.results')
  await connect(page, 'query_2', 'merge_1', /^arrays \*/, 'query_2.output.results')
  await connect(page, 'merge_1', 'rerank_1', /^documents \*/, 'merge_1.output.results')
  await connect(page, '__inputs', 'rerank_1', /^query \*/, 'inputs.query')
  await connect(page, 'rerank_1', '__output', 'Add', 'rerank_1.output.results')
  await expect(node(page, '__output')).toContainText('results')

  // Each search reads its own collection of the sample knowledge base.
  await select(page, 'query_1')
  await fillField(page, 'collection', 'api_docs')
  await select(page, 'query_2')
  await fillField(page, 'collection', 'architecture')
  await expect(page.getByRole('toolbar', { name: 'Editing' }).getByText('Valid', { exact: true })).toBeVisible()
  await expect(page.locator('[data-problem="error"]')).toHaveCount(0)

  // Save: a new workflow asks for a file name (suggested from its name).
  await page.keyboard.press('Control+s')
  const dialog = page.getByRole('dialog', { name: 'Save as' })
  const fileName = dialog.getByRole('textbox', { name: 'File name' })
  await expect(fileName).toHaveValue('two-collections')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(title(page)).toHaveText('Two Collections')

  const file = path.join(playgroundDir(), 'two-collections.vai-workflow.json')
  const saved = JSON.parse(readFileSync(file, 'utf8'))
  expect(saved.steps.map((s: { id: string; tool: string }) => `${s.id}:${s.tool}`)).toEqual([
    'query_1:query',
    'query_2:query',
    'merge_1:merge',
    'rerank_1:rerank',
  ])
  expect(saved.steps[2].inputs.arrays).toEqual(['{{ query_1.output.results }}', '{{ query_2.output.results }}'])
  expect(saved.steps[3].inputs).toMatchObject({ documents: '{{ merge_1.output.results }}', query: '{{ inputs.query }}' })
  expect(saved.output).toEqual({ results: '{{ rerank_1.output.results }}' })
  expect(saved.inputs.query).toMatchObject({ type: 'string', required: true })

  const validate = vai(['workflow', 'validate', 'two-collections.vai-workflow.json'])
  expect(validate.code, validate.stdout + validate.stderr).toBe(0)
  const run = vai(['workflow', 'run', 'two-collections.vai-workflow.json', '--input', 'query=how do I authenticate', '--json'])
  expect(run.code, run.stderr).toBe(0)
  const result = JSON.parse(run.stdout)
  expect(result.status).toBe('completed')
  type StepRun = { id: string; status: string; output: { resultCount?: number; results?: unknown[] } }
  const steps: Record<string, StepRun> = Object.fromEntries(result.steps.map((s: StepRun) => [s.id, s]))
  for (const id of ['query_1', 'query_2', 'merge_1', 'rerank_1']) expect(steps[id]?.status, id).toBe('completed')
  // Both collections answered, the merge holds both lists, and the output is them reranked.
  expect(steps.query_1.output.resultCount).toBeGreaterThan(0)
  expect(steps.query_2.output.resultCount).toBeGreaterThan(0)
  expect(steps.merge_1.output.resultCount).toBe(steps.query_1.output.resultCount! + steps.query_2.output.resultCount!)
  expect(result.output.results).toHaveLength(steps.merge_1.output.resultCount!)
})
