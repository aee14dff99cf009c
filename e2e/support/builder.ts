// What the builder specs do as a person would: enter edit mode, add steps from the palette by
// keyboard, drag connections between node handles and answer the connect menu, export, and run
// the `vai` CLI on what was saved (in the directory the playground serves, with the home whose
// local store it seeded).
import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { expect, type Locator, type Page } from '@playwright/test'
import { isolatedEnv, vaiBinary } from './playground.mjs'
import { node, regions } from './test'

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: run the specs through playwright.config.ts`)
  return value
}

/** The directory `vai playground` was started in: where Save writes. */
export function playgroundDir(): string {
  return required('VAI_PLAYGROUND_DIR')
}

/** `vai <args>` in the playground's directory and environment; exit code and output. */
export function vai(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const out = spawnSync(vaiBinary(), args, {
    cwd: playgroundDir(),
    env: isolatedEnv(required('VAI_PLAYGROUND_HOME')),
    encoding: 'utf8',
    timeout: 120_000,
  })
  if (out.error) throw out.error
  return { code: out.status, stdout: out.stdout, stderr: out.stderr }
}

export function editingToolbar(page: Page): Locator {
  return page.getByRole('toolbar', { name: 'Editing' })
}

/** The title in the top bar; a `●` marks unsaved changes. */
export function title(page: Page): Locator {
  return page.getByTestId('workflow-title')
}

/** Turns on edit mode for the open workflow. */
export async function edit(page: Page) {
  await page.getByRole('button', { name: 'Edit', exact: true }).click()
  await expect(editingToolbar(page)).toBeVisible()
}

/** Adds a step by typing in the palette's search and pressing Enter; waits for its node. */
export async function addStep(page: Page, search: string, id: string) {
  const box = page.getByRole('searchbox', { name: 'Search steps' })
  await box.fill(search)
  await box.press('Enter')
  await expect(node(page, id)).toBeVisible()
}

/** The node's card on the canvas (React Flow's wrapper, which holds the handles). */
export function flowNode(page: Page, id: string): Locator {
  return page.locator(`.react-flow__node[data-id="${id}"]`)
}

/**
 * A point where `locator` itself receives the pointer (not a panel, control or minimap drawn over
 * it), read once it is stable (not moving with a pan or a fit animation).
 */
async function pointOn(locator: Locator): Promise<{ x: number; y: number }> {
  await locator.hover({ trial: true })
  const point = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect()
    for (const fy of [0.5, 0.25, 0.75]) {
      for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
        const x = r.left + r.width * fx
        const y = r.top + r.height * fy
        const hit = document.elementFromPoint(x, y)
        if (hit && (hit === el || el.contains(hit))) return { x, y }
      }
    }
    return undefined
  })
  if (!point) throw new Error(`nothing of ${locator} can be pointed at: it is covered or off screen`)
  return point
}

/** Starts dragging a connection from the output handle of `from`; the mouse stays down. */
export async function startConnection(page: Page, from: string) {
  const start = await pointOn(flowNode(page, from).locator('.react-flow__handle.source'))
  await page.mouse.move(start.x, start.y)
  await page.mouse.down()
}

/** Moves a connection being dragged over `target` (a node, or one of its handles). */
export async function dragOver(page: Page, target: Locator) {
  const end = await pointOn(target)
  await page.mouse.move(end.x, end.y, { steps: 8 })
}

/** Drags a connection from the output handle of `from` and releases it on the node `to`. */
export async function dragConnection(page: Page, from: string, to: string) {
  await startConnection(page, from)
  await dragOver(page, node(page, to))
  await page.mouse.up()
}

export function connectMenu(page: Page): Locator {
  return page.getByRole('dialog', { name: /^Connect / })
}

/**
 * Connects `from` → `to` with the mouse and answers the connect menu: what to read (a path in
 * the "Read" list, when the source offers several) and where it goes (an input, or `Add` for a
 * new output field).
 */
export async function connect(page: Page, from: string, to: string, into: RegExp | string, read?: string) {
  await dragConnection(page, from, to)
  const menu = connectMenu(page)
  await expect(menu).toBeVisible()
  if (read) {
    await menu.getByRole('combobox', { name: 'Read' }).click()
    await page.getByRole('option', { name: read, exact: true }).click()
  }
  await menu.getByRole('button', { name: into }).click()
  await expect(menu).toBeHidden()
}

/** Selects a node by clicking it; the inspector then shows its form. */
export async function select(page: Page, id: string) {
  await node(page, id).click()
  await expect(node(page, id)).toBeVisible()
}

/** A text field of the selected step's (or the workflow's) form, by its label. */
export function field(page: Page, label: string): Locator {
  return regions(page).inspector.getByRole('textbox', { name: label, exact: true })
}

/** Types `value` into a form field and leaves it, as a person tabbing on. */
export async function fillField(page: Page, label: string, value: string) {
  const input = field(page, label)
  await input.fill(value)
  await input.press('Tab')
}

/** Downloads the workflow as the toolbar's Download button exports it; returns the text. */
export async function download(page: Page): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), editingToolbar(page).getByRole('button', { name: 'Download' }).click()])
  const path = await file.path()
  return { name: file.suggestedFilename(), text: await readFile(path, 'utf8') }
}
