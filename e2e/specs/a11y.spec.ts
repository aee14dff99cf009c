// Accessibility: axe-core's WCAG 2.0 and 2.1 A and AA rules over the main views find nothing —
// a workflow open, after a run, a step selected, edit mode, a dialog open, the chat panel,
// presenter mode, and the run history (the Runs panel, a past run, two runs compared). Each violation is reported with the rule, the help text and the offending
// elements, so a failure says what to fix.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { ownPlayground } from '../support/own-playground'
import { expect, node, openWorkflow, regions, runStatus, test } from '../support/test'

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

async function violations(page: Page): Promise<string[]> {
  // Let transitions (drawers, dialogs, fades) finish: axe reads computed colours.
  await page.waitForTimeout(400)
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze()
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

test.beforeEach(async ({ page }) => {
  await openWorkflow(page, 'builtin:multi-collection-search')
})

test('a workflow open, a step selected and after a run: no violations', async ({ page }) => {
  expect(await violations(page), 'workflow open').toEqual([])

  await node(page, 'merge').click()
  await expect(regions(page).inspector.getByRole('heading', { name: 'Combine hits, one per source' })).toBeVisible()
  expect(await violations(page), 'step selected').toEqual([])

  await regions(page)
    .runBar.getByRole('textbox', { name: /^query/ })
    .fill('how does authentication work')
  await regions(page).runBar.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
  expect(await violations(page), 'after a run').toEqual([])
})

test('the plan dialog, the chat panel and edit mode: no violations', async ({ page }) => {
  await regions(page).runBar.getByRole('button', { name: 'Plan' }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  expect(await violations(page), 'plan dialog').toEqual([])
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)

  await page.getByRole('button', { name: 'Show chat' }).click()
  await expect(page.getByRole('complementary', { name: 'Chat' })).toBeVisible()
  expect(await violations(page), 'chat panel').toEqual([])
  await page.getByRole('button', { name: 'Hide chat' }).click()

  await page.getByRole('button', { name: 'Edit', exact: true }).click()
  await expect(page.getByRole('toolbar', { name: 'Editing' })).toBeVisible()
  expect(await violations(page), 'edit mode').toEqual([])

  // The generated step form, with its template fields and selects.
  await node(page, 'merge').click()
  await expect(regions(page).inspector.getByRole('textbox', { name: 'Id', exact: true })).toBeVisible()
  // The workshop note edits keep, as the read-only inspector has it (one source: vai explain).
  await expect(regions(page).inspector.getByRole('heading', { name: 'What is happening here' })).toBeVisible()
  expect(await violations(page), 'step form').toEqual([])
})

test('a run paused before a step, and presenter mode with its inspector overlay: no violations', async ({ page }) => {
  await page.goto(`/?workflow=${encodeURIComponent('file:step-through.vai-workflow.json')}`)
  await expect(node(page, 'greet')).toBeVisible()
  const { runBar } = regions(page)
  await runBar.getByRole('button', { name: 'Step', exact: true }).click()
  // Next is reachable from the keyboard while paused.
  const next = runBar.getByRole('button', { name: 'Next' })
  await expect(next).toBeVisible()
  expect(await violations(page), 'paused before a step').toEqual([])

  await page.getByRole('button', { name: 'Presenter mode' }).click()
  await expect(page.getByTestId('presenter-banner')).toContainText('Paused before')
  expect(await violations(page), 'presenter mode, paused').toEqual([])
  await next.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('presenter-banner')).toContainText(/Paused before|Completed/)
  await runBar.getByRole('button', { name: 'Cancel' }).click()
  await expect(runStatus(page)).toHaveText('Cancelled')

  await node(page, 'greet').click()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog')).toBeVisible()
  expect(await violations(page), 'presenter inspector overlay').toEqual([])
})

// Its runs on a playground of its own, where no other spec's page takes them up.
test.describe('run history', () => {
  const playground = ownPlayground()

  test('the Runs panel, a past run and two runs compared: no violations', async ({ page }) => {
    await playground.openWorkflow(page, 'builtin:multi-collection-search')
    const { runBar, inspector } = regions(page)
    await runBar.getByRole('textbox', { name: /^query/ }).fill('how does authentication work')
    for (const limit of ['3', '5']) {
      await runBar.getByRole('textbox', { name: 'limit' }).fill(limit)
      await runBar.getByRole('button', { name: 'Run', exact: true }).click()
      await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
    }
    await page.getByRole('button', { name: 'Show runs' }).click()
    const runs = page.getByRole('complementary', { name: 'Runs' })
    await expect(runs.getByTestId('history-run')).toHaveCount(2)
    expect(await violations(page), 'runs panel').toEqual([])

    await runs.getByTestId('history-run').first().getByRole('button').click()
    await expect(page.getByRole('region', { name: 'Past run' })).toBeVisible()
    await node(page, 'rerank_all').click()
    await expect(inspector.getByRole('button', { name: 'Restart from here' })).toBeVisible()
    expect(await violations(page), 'past run').toEqual([])

    for (const row of await runs.getByTestId('history-run').all()) await row.getByRole('checkbox').check()
    await runs.getByRole('button', { name: 'Compare' }).click()
    await expect(inspector.getByTestId('results-diff')).toBeVisible()
    expect(await violations(page), 'two runs compared').toEqual([])
  })
})

test.describe('at 1024×768', () => {
  test.use({ viewport: { width: 1024, height: 768 } })

  test('the canvas alone, and the library and runs drawers open: no violations', async ({ page }) => {
    expect(await violations(page), 'canvas alone').toEqual([])
    await page.getByRole('button', { name: 'Show library' }).click()
    await expect(regions(page).library).toBeVisible()
    expect(await violations(page), 'library drawer').toEqual([])
    // One drawer at a time: the Runs panel takes the library's place.
    await page.getByRole('button', { name: 'Show runs' }).click()
    await expect(page.getByRole('complementary', { name: 'Runs' })).toBeVisible()
    await expect(regions(page).library).toHaveCount(0)
    expect(await violations(page), 'runs drawer').toEqual([])
  })
})
