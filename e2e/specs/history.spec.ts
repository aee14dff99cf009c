// Run history in the playground: a past run opened from the Runs panel is drawn as it ended and
// its steps' recorded inputs and outputs are in the inspector; two runs of
// multi-collection-search with different `limit`s compared mark the changed steps and show the
// documents that entered the rerank, with their ranks; a restart from `rerank_all` replays the
// steps upstream of it from the journal and is listed as restarted from the first run; a past
// run says how its file changed since, and still opens once the file is gone. On a playground of
// its own: its runs of the built-in must not be taken up by other specs' pages, nor theirs by its.
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Page } from '@playwright/test'
import type { HistoryList, RunSnapshot, StepDetail } from '../../web/src/api/types'
import { ownPlayground } from '../support/own-playground'
import { fixturesDir } from '../support/playground.mjs'
import { expect, node, regions, runStatus, test } from '../support/test'

const playground = ownPlayground()

const WORKFLOW = 'builtin:multi-collection-search'
const STEPS = ['search_1', 'search_2', 'merge', 'rerank_all']
const UPSTREAM = ['search_1', 'search_2', 'merge']

/** A query no other spec sends, so this spec's runs are the ones its filter finds. */
function uniqueQuery(what: string): string {
  return `authentication ${what} ${Date.now().toString(36)}`
}

async function runInUi(page: Page, query: string, limit?: number) {
  const { runBar } = regions(page)
  await runBar.getByRole('textbox', { name: /^query/ }).fill(query)
  if (limit !== undefined) await runBar.getByRole('textbox', { name: 'limit' }).fill(String(limit))
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
}

function runsPanel(page: Page) {
  return page.getByRole('complementary', { name: 'Runs' })
}

/** Opens the Runs panel and filters it to the runs whose inputs hold `query`. */
async function showRuns(page: Page, query: string) {
  if (!(await runsPanel(page).isVisible())) await page.getByRole('button', { name: 'Show runs' }).click()
  await runsPanel(page).getByRole('searchbox', { name: 'Filter runs' }).fill(query)
  return runsPanel(page).getByTestId('history-run')
}

test('a past run opens as it ended, with each step’s recorded inputs and output', async ({ page }, testInfo) => {
  await playground.openWorkflow(page, WORKFLOW)
  const query = uniqueQuery('past')
  await runInUi(page, query)

  const rows = await showRuns(page, query)
  await expect(rows).toHaveCount(1)
  const runId = await rows.first().getAttribute('data-run-id')
  expect(runId).toBeTruthy()
  await expect(rows.first()).toContainText('Completed')
  await expect(rows.first()).toContainText(`query=${query}`)

  // Another workflow first, so what is drawn comes from the history, not from the run just made.
  await playground.openWorkflow(page, 'builtin:rag-chat')
  await playground.goto(page, `/?run=${runId}`)
  const banner = page.getByRole('region', { name: 'Past run' })
  await expect(banner.getByTestId('past-run-line')).toContainText(/Past run from (just now|\d+ min ago) · Completed · took /)
  await expect(banner.getByTestId('past-run-changes')).toHaveText('The workflow has not changed since.')
  for (const id of STEPS) {
    await expect(node(page, id)).toHaveAttribute('data-status', 'completed')
    await expect(node(page, id).getByTestId('step-time')).toHaveText(/^\d+(\.\d+)? (ms|s)$/)
  }
  await expect(runStatus(page)).toHaveText('Completed')
  // The run form holds the inputs it ran with.
  await expect(regions(page).runBar.getByRole('textbox', { name: /^query/ })).toHaveValue(query)

  // The cost and time overlay reads the past run as it reads a live one.
  await regions(page).runBar.getByRole('switch', { name: 'Cost & time' }).check()
  for (const id of ['merge', 'rerank_all']) await expect(node(page, id)).toHaveAttribute('data-critical', 'true')
  await expect(page.getByTestId('run-totals')).toContainText('$0')

  const { inspector } = regions(page)
  // A step's context menu offers the restart too.
  await node(page, 'merge').click({ button: 'right' })
  await expect(page.getByRole('menuitem', { name: 'Restart from here' })).toBeEnabled()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('menu')).toHaveCount(0)
  await node(page, 'rerank_all').click()
  await expect(inspector.getByRole('heading', { name: 'Rerank the combined hits' })).toBeVisible()
  await expect(inspector.getByTestId('step-run-facts')).toContainText('Completed')
  await expect(inspector.getByText('Resolved inputs')).toBeVisible()
  await expect(inspector.getByText(query).first()).toBeVisible()
  await expect(inspector.getByText('Output', { exact: true }).first()).toBeVisible()
  await expect(inspector.getByText(/resultCount/).first()).toBeVisible()

  const shot = testInfo.outputPath('history-past-run.png')
  await page.screenshot({ path: shot })
  await testInfo.attach('a past run', { path: shot, contentType: 'image/png' })

  // Back to the workflow as the library has it.
  await banner.getByRole('button', { name: 'Back to the workflow' }).click()
  await expect(page).toHaveURL(/\?workflow=builtin%3Amulti-collection-search/)
  await expect(page.getByRole('region', { name: 'Past run' })).toHaveCount(0)
})

test('two runs with another limit: the changed steps are marked and the documents that entered are listed with their ranks', async ({ page }, testInfo) => {
  await playground.openWorkflow(page, WORKFLOW)
  const query = uniqueQuery('diff')
  await runInUi(page, query, 3)
  await runInUi(page, query, 6)

  const rows = await showRuns(page, query)
  await expect(rows).toHaveCount(2)
  // Newest first: the run with limit 6 is B.
  await expect(rows.nth(0)).toContainText('limit=6')
  await expect(rows.nth(1)).toContainText('limit=3')
  const b = await rows.nth(0).getAttribute('data-run-id')
  for (const row of await rows.all()) await row.getByRole('checkbox').check()
  await runsPanel(page).getByRole('button', { name: 'Compare' }).click()

  const comparison = page.getByTestId('comparison')
  await expect(comparison).toContainText('Comparing run A from')
  await expect(comparison.getByTestId('comparison-inputs')).toHaveText('limit 3 → 6')
  await expect(comparison.getByTestId('comparison-workflow')).toHaveText('the same version')
  await expect(comparison.getByTestId('comparison-totals')).toContainText(/Time .+ → .+ \([+−±]/)
  await expect(page).toHaveURL(new RegExp(`\\?run=${b}`))

  // Every step read the limit or what came of it.
  for (const id of STEPS) {
    await expect(node(page, id)).toHaveAttribute('data-diff', 'changed')
    await expect(page.getByTestId(`node-diff-${id}`)).toHaveText('changed')
  }
  await expect(node(page, 'search_1').getByTestId('step-diff')).toContainText('limit 3 → 6')

  const { inspector } = regions(page)
  await node(page, 'search_1').click()
  const searchView = inspector.getByTestId('step-diff-view')
  await expect(searchView.getByRole('table', { name: 'Changed inputs' }).getByRole('row', { name: /limit/ })).toHaveText(/limit\s*3\s*6/)

  await node(page, 'rerank_all').click()
  const view = inspector.getByTestId('step-diff-view')
  await expect(view).toHaveAttribute('data-change', 'changed')
  await expect(view.getByTestId('results-diff')).toContainText(/\d+ entered/)
  const entered = view.locator('[data-testid="result-row"][data-mark="entered"]')
  expect(await entered.count()).toBeGreaterThan(0)
  // An entered document has a rank in B and none in A, and says where it entered.
  const first = entered.first()
  const rankB = await first.getAttribute('data-rank-b')
  expect(Number(rankB)).toBeGreaterThan(0)
  expect(await first.getAttribute('data-rank-a')).toBeNull()
  await expect(first).toContainText(`— → ${rankB}`)
  await expect(first.getByLabel(`entered at rank ${rankB}`)).toHaveText('new')
  // Every listed document that was in both runs says how many places it moved.
  for (const moved of await view.locator('[data-testid="result-row"][data-mark="up"], [data-testid="result-row"][data-mark="down"]').all()) {
    await expect(moved).toContainText(/[↑↓]\d+/)
  }

  const shot = testInfo.outputPath('history-diff.png')
  await page.screenshot({ path: shot })
  await testInfo.attach('two runs compared', { path: shot, contentType: 'image/png' })

  await page.getByRole('button', { name: 'Stop comparing' }).click()
  await expect(node(page, 'rerank_all')).not.toHaveAttribute('data-diff', /.*/)
})

test('a restart from rerank_all with another top_k replays the steps before it and is listed as restarted from the first run', async ({ page }, testInfo) => {
  await playground.openWorkflow(page, WORKFLOW)
  const query = uniqueQuery('restart')
  await runInUi(page, query)
  const rows = await showRuns(page, query)
  await expect(rows).toHaveCount(1)
  const original = (await rows.first().getAttribute('data-run-id'))!
  await rows.first().getByRole('button').click()
  await expect(page.getByRole('region', { name: 'Past run' })).toBeVisible()

  // The run form holds the past run's inputs; what is changed there goes with the restart.
  await expect(regions(page).runBar.getByRole('textbox', { name: /^query/ })).toHaveValue(query)
  await regions(page).runBar.getByRole('textbox', { name: 'top_k' }).fill('3')
  await node(page, 'rerank_all').click()
  await regions(page).inspector.getByRole('button', { name: 'Restart from here' }).click()
  const banner = page.getByRole('region', { name: 'Past run' })
  await expect(banner.getByTestId('restarted-line')).toContainText('Restarted from rerank_all of the past run of')
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
  await expect(banner.getByTestId('restarted-line')).toContainText('Completed')

  // Upstream: reused from the first run, not run again; the rerank ran.
  for (const id of UPSTREAM) {
    await expect(node(page, id).getByTestId('step-reused')).toHaveText('reused')
    await expect(node(page, id).getByTestId('step-reused')).toHaveAttribute('title', `reused from run ${original}`)
  }
  await expect(node(page, 'rerank_all').getByTestId('step-time')).toHaveText(/^\d+(\.\d+)? (ms|s)$/)

  // Listed as restarted from the first run, at rerank_all.
  const restarted = runsPanel(page).locator('[data-testid="history-run"]', { has: page.getByTestId('history-run-from') })
  await expect(restarted).toHaveCount(1)
  await expect(restarted).toContainText('restarted from rerank_all of the run of')
  const restartedId = (await restarted.getAttribute('data-run-id'))!
  expect(restartedId).not.toBe(original)

  // The server agrees: the entry names its origin, and the upstream steps came from the journal.
  const listed = await playground.get<HistoryList>(`/api/history?workflowId=${encodeURIComponent(WORKFLOW)}`)
  expect(listed.runs.find((r) => r.runId === restartedId)?.from).toEqual({ runId: original, step: 'rerank_all' })
  const snapshot = await playground.get<RunSnapshot>(`/api/runs/${restartedId}`)
  for (const id of UPSTREAM) expect(snapshot.steps[id]?.backend, id).toBe('journal')
  expect(snapshot.steps.rerank_all?.backend).not.toBe('journal')
  expect(snapshot.status).toBe('completed')
  const rerank = await playground.get<StepDetail>(`/api/runs/${restartedId}/steps/rerank_all/output`)
  expect(rerank.inputs).toMatchObject({ topK: 3 })
  expect(rerank.output).toMatchObject({ resultCount: 3 })

  const shot = testInfo.outputPath('history-restarted.png')
  await page.screenshot({ path: shot })
  await testInfo.attach('restarted from rerank_all', { path: shot, contentType: 'image/png' })

  // And the two compare at once from the banner.
  await banner.getByRole('button', { name: 'Compare with the original' }).click()
  await expect(page.getByTestId('comparison')).toContainText('Comparing run A from')
  for (const id of UPSTREAM) await expect(node(page, id)).toHaveAttribute('data-diff', 'same')
  await expect(node(page, 'rerank_all')).toHaveAttribute('data-diff', 'changed')
  await expect(page.getByTestId('comparison').getByTestId('comparison-inputs')).toHaveText(/^top_k absent → 3$/)
})

test('a past run says how its file changed since, and opens once the file is gone', async ({ page }) => {
  // A file of its own in the playground's folder, so changing and removing it touches no other spec.
  const name = `history-${Date.now().toString(36)}.vai-workflow.json`
  const file = path.join(playground.dir, name)
  const text = await readFile(path.join(fixturesDir, 'step-through.vai-workflow.json'), 'utf8')
  await writeFile(file, text)
  try {
    await playground.openWorkflow(page, `file:${name}`)
    await regions(page).runBar.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
    const rows = await showRuns(page, '')
    await expect(rows).toHaveCount(1)
    const runId = await rows.first().getAttribute('data-run-id')

    await writeFile(file, text.replace('{{ shout.output.text }} (vai)', '{{ shout.output.text }} (edited)'))
    await playground.goto(page, `/?run=${runId}`)
    const changes = page.getByRole('region', { name: 'Past run' }).getByTestId('past-run-changes')
    await expect(changes).toContainText('The workflow has changed since:')
    await expect(changes.getByRole('listitem')).toHaveText(['step "sign" changed'])
    // Drawn as it ran, not as the file is now.
    await node(page, 'sign').click()
    await expect(regions(page).inspector.getByText('Hello, workshop! (vai)').first()).toBeVisible()
    await expect(regions(page).inspector).not.toContainText('(edited)')

    await rm(file)
    await page.reload()
    await expect(changes).toHaveText('Its workflow is no longer in the library: this is the definition the run kept.')
    for (const id of ['greet', 'shout', 'sign']) await expect(node(page, id)).toHaveAttribute('data-status', 'completed')
    await page.getByRole('region', { name: 'Past run' }).getByRole('button', { name: 'Close' }).click()
    await expect(node(page, 'sign')).toHaveCount(0)
    await expect(page).not.toHaveURL(/run=/)
  } finally {
    await rm(file, { force: true })
  }
})
