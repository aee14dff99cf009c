// Workshop-ready playground: on a 1024×768 projector the canvas keeps the width (library and
// inspector become drawers), the run bar wraps rather than clipping fields, fit-to-view keeps
// node titles legible, and presenter mode (button, P, Escape, ?present=1) draws the canvas large.
import type { Locator, Page } from '@playwright/test'
import { expectTitlesLegible, LEGIBLE_PX, titlePx } from '../support/canvas'
import { expect, node, openWorkflow, regions, runStatus, test } from '../support/test'

const MULTI = 'builtin:multi-collection-search'
/** Every workflow the library ships: each one's run bar must fit. */
const SHIPPED = [
  'builtin:consistency-check',
  'builtin:cost-analysis',
  'builtin:intelligent-ingest',
  'builtin:kb-health-report',
  MULTI,
  'builtin:rag-chat',
  'builtin:research-and-summarize',
  'builtin:search-with-fallback',
  'builtin:smart-ingest',
  'example:embedding-model-comparison',
  'example:markdown-sections',
  'example:question-fanout',
  'example:rag-with-guardrails',
  'example:url-knowledge-base',
]

/**
 * Each input and button of the run bar: inside the viewport and the run bar, and the element
 * drawn at its centre is itself (or, for a disabled button, its wrapper), not something over it.
 */
async function expectRunBarUnclipped(page: Page) {
  const { runBar } = regions(page)
  await expect(runBar.getByRole('button', { name: 'Run', exact: true })).toBeVisible()
  // Checked until it holds: the fields fill with their defaults, and MUI moves their labels out
  // of the way, a moment after the bar first shows (longer on a loaded machine).
  await expect(async () => expect(await runBarProblems(runBar)).toEqual({ found: [], enough: true })).toPass()
}

/** What is wrong with the run bar's layout now, and whether it has enough controls to judge. */
async function runBarProblems(runBar: Locator): Promise<{ found: string[]; enough: boolean }> {
  const problems = await runBar.evaluate((bar) => {
    const area = bar.getBoundingClientRect()
    const found: string[] = []
    // A select's own input is hidden behind its combobox; the combobox is what is checked.
    const controls = Array.from(bar.querySelectorAll<HTMLElement>('input, button, textarea, [role="combobox"]')).filter(
      (el) => !el.hidden && el.getAttribute('aria-hidden') !== 'true' && el.getClientRects().length > 0,
    )
    for (const el of controls) {
      const name = el.getAttribute('aria-label') ?? el.id ?? el.textContent ?? el.tagName
      const box = el.getBoundingClientRect()
      const inside = (outer: { left: number; top: number; right: number; bottom: number }) =>
        box.left >= outer.left - 0.5 && box.top >= outer.top - 0.5 && box.right <= outer.right + 0.5 && box.bottom <= outer.bottom + 0.5
      if (!inside({ left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight })) found.push(`${name}: outside the viewport`)
      if (!inside(area)) found.push(`${name}: outside the run bar`)
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      if (!hit || !(el.contains(hit) || (hit.contains(el) && bar.contains(hit)))) found.push(`${name}: covered by ${hit?.outerHTML.slice(0, 80)}`)
    }
    const form = bar.querySelector('form')
    if (form && form.scrollWidth > form.clientWidth + 1) found.push('the input form scrolls sideways')
    return { found, count: controls.length }
  })
  return { found: problems.found, enough: problems.count > 3 }
}

async function widthOf(locator: Locator): Promise<number> {
  return (await locator.boundingBox())!.width
}

/** The canvas by its element: while a drawer is open it is hidden from the accessibility tree. */
function canvasBox(page: Page): Locator {
  return page.locator('main[aria-label="Canvas"]')
}

test.describe('at 1024×768', () => {
  test.use({ viewport: { width: 1024, height: 768 } })

  for (const id of SHIPPED) {
    test(`the run bar of ${id} shows every field and button`, async ({ page }) => {
      await openWorkflow(page, id)
      await expectRunBarUnclipped(page)
    })
  }

  test('Multi-Collection Search is drawn legible, and whole, on a near-full-width canvas', async ({ page }) => {
    await openWorkflow(page, MULTI)
    const { canvas, library, inspector } = regions(page)
    await expect(library).toHaveCount(0)
    await expect(inspector).toHaveCount(0)
    expect(await widthOf(canvas)).toBeGreaterThanOrEqual(900)
    await expectTitlesLegible(page)
    // Laid out compactly enough to fit whole at that zoom (canvas-fit.spec.ts): the inputs node
    // and the output node are both in view.
    await expect(node(page, '__inputs')).toBeInViewport({ ratio: 1 })
    await expect(node(page, '__output')).toBeInViewport({ ratio: 0.99 })
    await expect(page.getByTestId('minimap')).toHaveCount(0)

    // The user may zoom out past legible; Fit view brings it back.
    for (let i = 0; i < 4; i++) await canvas.getByRole('button', { name: 'Zoom Out' }).click()
    expect(Math.min(...(await titlePx(page)))).toBeLessThan(LEGIBLE_PX)
    await canvas.getByRole('button', { name: 'Fit view' }).click()
    await expectTitlesLegible(page)
    await expect(node(page, '__inputs')).toBeInViewport({ ratio: 1 })
  })

  test('the library and inspector open as drawers over the canvas and close again', async ({ page }) => {
    await openWorkflow(page, MULTI)
    const { library, inspector } = regions(page)
    const canvas = canvasBox(page)
    const width = await widthOf(canvas)

    await page.getByRole('button', { name: 'Show library' }).click()
    await expect(library).toBeVisible()
    await expect(page.getByRole('button', { name: 'Hide library' })).toHaveAttribute('aria-pressed', 'true')
    expect(await widthOf(canvas)).toBe(width) // over the canvas, not beside it
    await page.keyboard.press('Escape')
    await expect(library).toHaveCount(0)

    // The toggle closes it too (the top bar stays above the drawer's backdrop).
    await page.getByRole('button', { name: 'Show library' }).click()
    await expect(library).toBeVisible()
    await page.getByRole('button', { name: 'Hide library' }).click()
    await expect(library).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Show library' })).toHaveAttribute('aria-pressed', 'false')

    // Selecting a node leaves the inspector closed; its toggle opens it with that node.
    await node(page, 'merge').click()
    await expect(inspector).toHaveCount(0)
    await page.getByRole('button', { name: 'Show inspector' }).click()
    await expect(inspector).toBeVisible()
    await expect(inspector.getByRole('heading', { name: 'Combine hits, one per source' })).toBeVisible()
    // The backdrop closes it (clicked at the far left, away from the drawer).
    await page.mouse.click(20, 400)
    await expect(inspector).toHaveCount(0)
    expect(await widthOf(canvas)).toBe(width)

    // The chat panel too.
    await page.getByRole('button', { name: 'Show chat' }).click()
    const chat = page.getByRole('complementary', { name: 'Chat' })
    await expect(chat).toBeVisible()
    expect(await widthOf(canvas)).toBe(width)
    await page.keyboard.press('Escape')
    await expect(chat).toHaveCount(0)
    await expect(page).not.toHaveURL(/[?&]chat=/)

    // Opening a workflow from the library drawer closes it, so the workflow is seen.
    await page.getByRole('button', { name: 'Show library' }).click()
    await library
      .getByRole('button', { name: /^Search with Fallback/ })
      .first()
      .click()
    await expect(node(page, 'check_results')).toBeVisible()
    await expect(library).toHaveCount(0)
  })

  test('presenter mode: button, P and Escape, survives a reload, larger and high-contrast', async ({ page }) => {
    await openWorkflow(page, MULTI)
    const presenter = page.getByRole('button', { name: 'Presenter mode' })
    const banner = page.getByTestId('presenter-banner')
    await expect(presenter).toHaveAttribute('aria-pressed', 'false')
    await expectTitlesLegible(page)
    const normal = Math.min(...(await titlePx(page)))

    await presenter.click()
    await expect(presenter).toHaveAttribute('aria-pressed', 'true')
    await expect(page).toHaveURL(/[?&]present=1/)
    await expect(banner).toHaveText(/Ready · Multi-Collection Search/)
    await expect(banner).toHaveCSS('font-size', /^(2[4-9]|[3-9]\d)/)
    await expectTitlesLegible(page, normal * 1.45)
    await expect(regions(page).library).toHaveCount(0)
    await expect(regions(page).inspector).toHaveCount(0)
    await expect(page.getByRole('button', { name: /chat/i })).toHaveCount(0)
    // High contrast: pure-white text on black.
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(0, 0, 0)')

    await page.reload()
    await expect(node(page, '__inputs')).toBeVisible()
    await expect(presenter).toHaveAttribute('aria-pressed', 'true')
    await expect(banner).toBeVisible()
    await expectTitlesLegible(page, normal * 1.45)

    await page.keyboard.press('p')
    await expect(presenter).toHaveAttribute('aria-pressed', 'false')
    await expect(banner).toHaveCount(0)
    await expect(page).not.toHaveURL(/present=/)
    await page.keyboard.press('P')
    await expect(presenter).toHaveAttribute('aria-pressed', 'true')
    await page.keyboard.press('Escape')
    await expect(presenter).toHaveAttribute('aria-pressed', 'false')

    // P typed into a field is a letter, not a toggle.
    const query = regions(page).runBar.getByRole('textbox', { name: /^query/ })
    await query.fill('')
    await query.press('p')
    await expect(query).toHaveValue('p')
    await expect(presenter).toHaveAttribute('aria-pressed', 'false')
  })

  test('presenter mode: the inspector overlay opens on Enter and closes on Escape; the banner follows the run', async ({ page }) => {
    await openWorkflow(page, MULTI)
    await page.getByRole('button', { name: 'Presenter mode' }).click()
    const banner = page.getByTestId('presenter-banner')

    await node(page, 'search_1').click()
    await page.keyboard.press('Enter')
    const overlay = page.getByRole('dialog')
    await expect(overlay).toBeVisible()
    await expect(overlay.getByRole('complementary', { name: 'Inspector' })).toBeVisible()
    expect((await overlay.boundingBox())!.width).toBeGreaterThan(700)
    // Escape closes the overlay, not presenter mode.
    await page.keyboard.press('Escape')
    await expect(overlay).toHaveCount(0)
    await expect(banner).toBeVisible()

    // Double-click opens it too, and the top bar's inspector button.
    await node(page, 'search_2').dblclick()
    await expect(overlay).toBeVisible()
    await overlay.getByRole('button', { name: 'Close inspector' }).click()
    await expect(overlay).toHaveCount(0)
    await page.getByRole('button', { name: 'Show inspector' }).click()
    await expect(overlay).toBeVisible()
    await page.keyboard.press('Escape')

    // The banner says what the run is doing, large.
    await page.evaluate(() => {
      const w = window as unknown as { __banner: string[] }
      w.__banner = []
      const el = document.querySelector('[data-testid="presenter-banner"]')!
      const scan = () => {
        const text = el.textContent ?? ''
        if (w.__banner[w.__banner.length - 1] !== text) w.__banner.push(text)
      }
      new MutationObserver(scan).observe(el, { subtree: true, childList: true, characterData: true })
    })
    await regions(page)
      .runBar.getByRole('textbox', { name: /^query/ })
      .fill('how does authentication work')
    await regions(page).runBar.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(runStatus(page)).toHaveText('Completed', { timeout: 60_000 })
    await expect(banner).toHaveText(/^Completed in \d/)
    const seen = await page.evaluate(() => (window as unknown as { __banner: string[] }).__banner)
    expect(
      seen.some((text) => text.startsWith('Running')),
      JSON.stringify(seen),
    ).toBeTruthy()
  })
})

test.describe('at 1024×768, editing', () => {
  test.use({ viewport: { width: 1024, height: 768 } })

  test("presenter mode fits the builder's canvas legibly and larger; leaving it fits legibly again", async ({ page }) => {
    await openWorkflow(page, MULTI)
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    await expect(page.getByRole('toolbar', { name: 'Editing' })).toBeVisible()
    // The builder fits as the read-only canvas does: titles legible (no longer the whole
    // workflow however small, which drew them at 4–6 px).
    await expectTitlesLegible(page)

    const presenter = page.getByRole('button', { name: 'Presenter mode' })
    await presenter.click()
    await expectTitlesLegible(page, LEGIBLE_PX * 1.45)
    // So does its Fit view button.
    await page.getByRole('toolbar', { name: 'Editing' }).getByRole('button', { name: 'Fit view' }).click()
    await expectTitlesLegible(page, LEGIBLE_PX * 1.45)
    const presented = Math.min(...(await titlePx(page)))

    // Leaving it fits at the normal scale again, still legible.
    await presenter.click()
    await expect.poll(async () => Math.min(...(await titlePx(page))), { timeout: 5_000 }).toBeLessThan(presented / 1.2)
    await expectTitlesLegible(page)
  })
})

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport })

    test('the library and inspector sit beside the canvas as before, nothing clipped', async ({ page }) => {
      await openWorkflow(page, MULTI)
      const { canvas, library, inspector } = regions(page)
      await expect(library).toBeVisible()
      await expect(inspector).toBeVisible()
      await expect(page.getByRole('button', { name: 'Hide library' })).toHaveAttribute('aria-pressed', 'true')
      expect(Math.round(await widthOf(canvas))).toBe(viewport.width - 280 - 380)
      await expectRunBarUnclipped(page)
      await expectTitlesLegible(page)

      await page.getByRole('button', { name: 'Hide library' }).click()
      await expect(library).toHaveCount(0)
      expect(Math.round(await widthOf(canvas))).toBe(viewport.width - 380)
      await page.getByRole('button', { name: 'Show library' }).click()
      await expect(library).toBeVisible()
    })
  })
}
