// The library: opening a workflow from the list and from the URL draws the graph the server
// plans for it; the search box filters the list.
import { diagnostics, expect, node, openWorkflow, planOf, regions, test, type GraphView } from '../support/test'
import type { Page } from '@playwright/test'

const ID = 'builtin:multi-collection-search'

async function expectGraphDrawn(page: Page, graph: GraphView) {
  const { canvas } = regions(page)
  for (const n of graph.nodes) await expect(node(page, n.id)).toBeVisible()
  await expect(canvas.locator('[data-testid^="node-"]')).toHaveCount(graph.nodes.length)
  for (const e of graph.edges) {
    await expect(canvas.getByTestId(`rf__edge-${e.id}`)).toHaveCount(1)
  }
  await expect(canvas.locator('[data-testid^="rf__edge-"]')).toHaveCount(graph.edges.length)
}

test('opening a built-in from the library draws its planned graph', async ({ page, request }) => {
  const graph = await planOf(request, ID)
  expect(graph.nodes.filter((n) => n.kind === 'step')).toHaveLength(4)

  await page.goto('/')
  const { library, inspector } = regions(page)
  // .first(): once opened, a workflow is also listed under "Recent".
  await library
    .getByRole('button', { name: /^Multi-Collection Search/ })
    .first()
    .click()

  await expect(page).toHaveURL(/[?&]workflow=builtin(:|%3A)multi-collection-search/)
  await expectGraphDrawn(page, graph)
  await expect(inspector.getByText('Multi-Collection Search').first()).toBeVisible()
  await expect(diagnostics(page)).toHaveCount(0)
})

test('?workflow= opens a built-in directly and survives a reload', async ({ page, request }) => {
  const graph = await planOf(request, ID)
  await openWorkflow(page, ID)
  await expectGraphDrawn(page, graph)

  await page.reload()
  await expectGraphDrawn(page, graph)
})

test('opening another workflow pushes history, so Back returns to the first', async ({ page }) => {
  await openWorkflow(page, ID)
  const { library } = regions(page)
  await library
    .getByRole('button', { name: /^Search with Fallback/ })
    .first()
    .click()
  await expect(node(page, 'check_results')).toBeVisible()
  await expect(page).toHaveURL(/workflow=builtin(:|%3A)search-with-fallback/)

  await page.goBack()
  await expect(page).toHaveURL(/workflow=builtin(:|%3A)multi-collection-search/)
  await expect(node(page, 'rerank_all')).toBeVisible()
})

test('the search box filters built-ins, examples and files in this directory', async ({ page }) => {
  await page.goto('/')
  const { library } = regions(page)
  const search = library.getByRole('textbox', { name: 'Search workflows' }).or(library.getByRole('searchbox', { name: 'Search workflows' }))
  // .first(): a workflow opened before is also listed under "Recent".
  const multi = library.getByRole('button', { name: /^Multi-Collection Search/ }).first()
  const fallback = library.getByRole('button', { name: /^Search with Fallback/ }).first()
  const fixture = library.getByRole('button', { name: /^Failing Step/ }).first()

  await expect(multi).toBeVisible()
  await expect(fixture).toBeVisible() // e2e/fixtures/*.vai-workflow.json, listed as file:
  await expect(library.getByRole('button', { name: /^Question Fan-out/ }).first()).toBeVisible() // an example

  await search.fill('fallback')
  await expect(fallback).toBeVisible()
  await expect(multi).toHaveCount(0)
  await expect(fixture).toHaveCount(0)

  await search.fill('no workflow is called this')
  await expect(fallback).toHaveCount(0)

  await search.fill('')
  await expect(multi).toBeVisible()
  await expect(fallback).toBeVisible()
})

test('a fixture file opens as a file: workflow', async ({ page, request }) => {
  const graph = await planOf(request, 'file:skipped-branch.vai-workflow.json')
  await openWorkflow(page, 'file:skipped-branch.vai-workflow.json')
  await expectGraphDrawn(page, graph)
  // The conditional's branches are drawn as then/else edges.
  expect(graph.edges.map((e) => e.kind)).toEqual(expect.arrayContaining(['then', 'else']))
})
