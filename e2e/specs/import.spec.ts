// Bringing a workflow in from outside the library: a file dropped on the page, a file picked
// with "Open file", and JSON pasted into the "Paste JSON" dialog (whose syntax errors are shown
// with line and column).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { diagnostics, expect, node, regions, test } from '../support/test'

const droppedPath = fileURLToPath(new URL('../fixtures/dropped.json', import.meta.url))
const dropped = readFileSync(droppedPath, 'utf8')

test('dropping a workflow file on the page opens it', async ({ page }) => {
  await page.goto('/')
  const { canvas, inspector } = regions(page)
  await expect(canvas).toBeVisible()

  // What the browser does for a real drag from the desktop: dragenter, dragover, drop, with the
  // file in the DataTransfer. Dispatched inside the canvas; the events bubble to the page.
  await canvas.evaluate((target, text) => {
    const data = new DataTransfer()
    data.items.add(new File([text], 'dropped.json', { type: 'application/json' }))
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }))
    }
  }, dropped)

  await expect(node(page, 'greet')).toBeVisible()
  await expect(node(page, 'shout')).toBeVisible()
  await expect(inspector.getByText('Dropped Workflow').first()).toBeVisible()
  await expect(diagnostics(page)).toHaveCount(0)
})

test('"Open file" opens the chosen workflow file', async ({ page }) => {
  await page.goto('/')
  const { library } = regions(page)
  await library.getByLabel('Workflow file').setInputFiles(droppedPath)
  await expect(node(page, 'greet')).toBeVisible()
  await expect(node(page, 'shout')).toBeVisible()
})

test('pasted JSON with a syntax error shows the error with its line and column', async ({ page }) => {
  await page.goto('/')
  const { library } = regions(page)
  await library.getByRole('button', { name: 'Paste JSON' }).click()
  const dialog = page.getByRole('dialog')
  // A trailing comma on line 4, column 18.
  await dialog.getByRole('textbox', { name: 'Workflow JSON' }).fill('{\n  "name": "Broken",\n  "steps": [\n    { "id": "a", }\n  ]\n}\n')
  await dialog.getByRole('button', { name: 'Open' }).click()

  const shown = diagnostics(page).filter({ hasText: /JSON/i })
  await expect(shown.first()).toBeVisible()
  await expect(shown.first()).toContainText(/\b4:18\b|line 4\D+18\b/i)
})

test('pasted valid JSON opens as a workflow', async ({ page }) => {
  await page.goto('/')
  const { library } = regions(page)
  await library.getByRole('button', { name: 'Paste JSON' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('textbox', { name: 'Workflow JSON' }).fill(dropped)
  await dialog.getByRole('button', { name: 'Open' }).click()
  await expect(node(page, 'greet')).toBeVisible()
  await expect(diagnostics(page)).toHaveCount(0)
})
