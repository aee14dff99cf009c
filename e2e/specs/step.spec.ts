// Step-through runs: a breakpoint set on the canvas (kept in the address) pauses a run before its
// step, which is highlighted and shown in the inspector with the inputs it will get; Next runs it
// and pauses before the next, Continue runs on to the end, Cancel ends it; the keys; two tabs
// following one paused run; the pace; and a playground with a short pause idle limit cancelling
// a run left paused.
import type { APIRequestContext, Page } from '@playwright/test'
import { startPlayground } from '../support/playground.mjs'
import { expect, node, regions, runStatus, test } from '../support/test'

const WORKFLOW = 'file:step-through.vai-workflow.json'
const PATH = `/?workflow=${encodeURIComponent(WORKFLOW)}`

async function open(page: Page, query = '') {
  await page.goto(PATH + query)
  await expect(node(page, 'greet')).toBeVisible()
}

function runNote(page: Page) {
  return page.getByTestId('run-note')
}

/** The run waits before `stepId`: highlighted, selected, its inputs in the inspector. */
async function expectPausedBefore(page: Page, stepId: string, name: string, input: string) {
  const { inspector } = regions(page)
  await expect(runNote(page)).toHaveText(`Paused before ${name}`)
  await expect(runStatus(page)).toHaveText('Running')
  await expect(node(page, stepId)).toHaveAttribute('data-paused', 'true')
  await expect(node(page, stepId)).toContainText('paused')
  await expect(page.locator('[data-paused="true"]')).toHaveCount(1)
  await expect(inspector.getByRole('heading', { name })).toBeVisible()
  const inputs = inspector.locator('section', { hasText: 'Resolved inputs' })
  await expect(inputs.getByText(`"${input}"`, { exact: true })).toBeVisible()
}

/** A test that failed while paused must not leave a run for the next test to adopt. */
async function cancelLeftovers(request: APIRequestContext) {
  const { runs } = (await (await request.get('/api/runs')).json()) as { runs: { runId: string; workflow: string; status: string }[] }
  for (const run of runs.filter((r) => r.workflow === 'Step Through' && r.status === 'running')) {
    await request.post(`/api/runs/${run.runId}/cancel`)
  }
}

test.afterEach(async ({ request }) => cancelLeftovers(request))

test('a breakpoint set on the canvas survives a reload and pauses the run; Next and Continue take it on', async ({ page }) => {
  await open(page)
  const { runBar } = regions(page)
  const marker = page.getByRole('button', { name: 'Breakpoint before shout' })
  await expect(marker).toHaveAttribute('aria-pressed', 'false')
  await node(page, 'shout').hover()
  await marker.click()
  await expect(marker).toHaveAttribute('aria-pressed', 'true')
  await expect(page).toHaveURL(/[?&]break=shout(&|$)/)
  // Toggling a breakpoint does not select the node.
  await expect(regions(page).inspector.getByRole('heading', { name: 'Shout it' })).toHaveCount(0)

  await page.reload()
  await expect(page.getByRole('button', { name: 'Breakpoint before shout' })).toHaveAttribute('aria-pressed', 'true')

  await runBar.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(node(page, 'greet')).toHaveAttribute('data-status', 'completed')
  await expectPausedBefore(page, 'shout', 'Shout it', 'Hello, workshop!')
  await expect(node(page, 'shout')).toHaveAttribute('data-status', 'pending')

  await runBar.getByRole('button', { name: 'Next', exact: true }).click()
  await expectPausedBefore(page, 'sign', 'Sign it', 'Hello, workshop! (vai)')
  await expect(node(page, 'shout')).toHaveAttribute('data-status', 'completed')
  await expect(node(page, 'shout')).not.toHaveAttribute('data-paused', 'true')

  await runBar.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(runStatus(page)).toHaveText('Completed')
  await expect(node(page, 'sign')).toHaveAttribute('data-status', 'completed')
  await expect(page.locator('[data-paused="true"]')).toHaveCount(0)
  await expect(runNote(page)).toHaveCount(0)
  await expect(runBar.getByRole('button', { name: 'Next', exact: true })).toHaveCount(0)
})

test('Step pauses before the first step; Space and → run the next; B sets a breakpoint', async ({ page }) => {
  await open(page)
  const { runBar } = regions(page)
  const step = runBar.getByRole('button', { name: 'Step', exact: true })
  await step.click()
  await expectPausedBefore(page, 'greet', 'Greet', 'Hello, workshop')
  await expect(runBar.getByRole('button', { name: 'Next', exact: true })).toHaveAttribute('aria-keyshortcuts', 'Space ArrowRight')

  // Keys typed into a field stay the field's.
  const search = page.getByRole('searchbox', { name: 'Search workflows' })
  await search.focus()
  await page.keyboard.press('Space')
  await page.keyboard.press('ArrowRight')
  await page.waitForTimeout(300)
  await expect(runNote(page)).toHaveText('Paused before Greet')
  await search.fill('')
  await search.blur()

  await page.locator('body').focus()
  await page.keyboard.press('Space')
  await expectPausedBefore(page, 'shout', 'Shout it', 'Hello, workshop!')
  await page.keyboard.press('ArrowRight')
  await expectPausedBefore(page, 'sign', 'Sign it', 'Hello, workshop! (vai)')

  // The paused step is selected: B sets its breakpoint (and again removes it).
  const marker = page.getByRole('button', { name: 'Breakpoint before sign' })
  await page.keyboard.press('b')
  await expect(marker).toHaveAttribute('aria-pressed', 'true')
  await expect(page).toHaveURL(/[?&]break=sign(&|$)/)
  await page.keyboard.press('b')
  await expect(marker).toHaveAttribute('aria-pressed', 'false')

  await page.keyboard.press('ArrowRight')
  await expect(runStatus(page)).toHaveText('Completed')
})

test('Cancel while paused ends the run cancelled', async ({ page }) => {
  await open(page)
  const { runBar } = regions(page)
  await runBar.getByRole('button', { name: 'Step', exact: true }).click()
  await expectPausedBefore(page, 'greet', 'Greet', 'Hello, workshop')
  await runBar.getByRole('button', { name: 'Cancel' }).click()
  await expect(runStatus(page)).toHaveText('Cancelled')
  await expect(node(page, 'greet')).toHaveAttribute('data-status', 'cancelled')
  await expect(page.locator('[data-paused="true"]')).toHaveCount(0)
  await expect(runBar.getByRole('button', { name: 'Step', exact: true })).toBeEnabled()
})

test('two tabs follow one paused run: Next in one moves both on', async ({ page, context }) => {
  await open(page, '&break=shout')
  await regions(page).runBar.getByRole('button', { name: 'Run', exact: true }).click()
  await expectPausedBefore(page, 'shout', 'Shout it', 'Hello, workshop!')

  const other = await context.newPage()
  await open(other)
  await expectPausedBefore(other, 'shout', 'Shout it', 'Hello, workshop!')

  await regions(other).runBar.getByRole('button', { name: 'Next', exact: true }).click()
  for (const tab of [page, other]) await expectPausedBefore(tab, 'sign', 'Sign it', 'Hello, workshop! (vai)')

  await regions(page).runBar.getByRole('button', { name: 'Continue', exact: true }).click()
  for (const tab of [page, other]) {
    await expect(runStatus(tab)).toHaveText('Completed')
    await expect(tab.locator('[data-paused="true"]')).toHaveCount(0)
  }
})

test('the pace is sent with a run and remembered', async ({ page }) => {
  await open(page)
  const { runBar } = regions(page)
  await runBar.getByRole('combobox', { name: 'Pace' }).click()
  await page.getByRole('option', { name: '0.5 s' }).click()
  const started = page.waitForRequest((r) => r.url().endsWith('/api/runs') && r.method() === 'POST')
  await runBar.getByRole('button', { name: 'Run', exact: true }).click()
  expect((await started).postDataJSON().stepThrough).toEqual({ pauseEach: false, breakpoints: [], paceMs: 500 })
  await expect(runStatus(page)).toHaveText('Completed')
  await page.reload()
  await expect(regions(page).runBar.getByRole('combobox', { name: 'Pace' })).toHaveText('0.5 s')
  // Back to off, so a plain Run sends no stepThrough.
  await regions(page).runBar.getByRole('combobox', { name: 'Pace' }).click()
  await page.getByRole('option', { name: 'Off' }).click()
  const plain = page.waitForRequest((r) => r.url().endsWith('/api/runs') && r.method() === 'POST')
  await regions(page).runBar.getByRole('button', { name: 'Run', exact: true }).click()
  expect((await plain).postDataJSON().stepThrough).toBeUndefined()
  await expect(runStatus(page)).toHaveText('Completed')
})

test.describe('with a 2 second pause idle limit', () => {
  let server: Awaited<ReturnType<typeof startPlayground>>

  test.beforeAll(async () => {
    server = await startPlayground({ args: ['--pause-idle', '2'] })
  })

  test.afterAll(async () => {
    await server?.stop()
  })

  test('a run left paused is cancelled, and the run bar says why', async ({ page }) => {
    await page.goto(server.printedUrl)
    await page.goto(server.url + PATH)
    await expect(node(page, 'greet')).toBeVisible()
    await regions(page).runBar.getByRole('button', { name: 'Step', exact: true }).click()
    await expect(runNote(page)).toHaveText('Paused before Greet')
    await expect(runStatus(page)).toHaveText('Cancelled', { timeout: 10_000 })
    await expect(runNote(page)).toHaveText('the run was paused for 2 seconds without Next or Continue')
    await expect(node(page, 'greet')).toHaveAttribute('data-status', 'cancelled')
  })
})
