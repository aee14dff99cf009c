// Builder (edit mode) benchmark: how long an edit takes to show on the canvas of a 200-step
// workflow in headless, software-rendered Chromium, and the size of the editor's lazy chunks.
// Not a test: it prints figures; nothing fails on a slow number. Build first:
//
//   npm run build -w web && cargo build --release -p vai
//   node e2e/bench/bench-editor.mjs [--runs 15] [--fake]
//
// By default it drives the real `vai playground` release binary (the e2e specs' isolated,
// offline environment), started in a temporary directory holding the workflow, so the figures
// include the server wherever the canvas waits for it (a rename is the server's rewrite).
// `--fake` serves web/dist from a small static server and answers the API inside the page
// (editor-api.mjs): the front end alone.
// The workflow: 20 layers of 10 template steps, each reading two of the layer before (as the
// playground benchmark's render case). Each figure is the time from the action until the canvas
// DOM changed and the next frame was painted (requestAnimationFrame, then a task):
//   value     one character typed into the selected step's text: its node's summary changes;
//   connect   the connect menu's input is chosen: the new edge is drawn;
//   rename    a new id entered in the selected step's Id field: the node carries the new id
//             (after the server rewrote every reference);
//   add       a palette click adds a step (it is selected, so the inspector changes too);
//   move      Arrow Right on the selected step: a one-node edit with the selection unchanged;
//   undo      Ctrl+Z of an added step; and of a 50-step paste (after pasting it).
// The machine's load average is printed before and after: state it with the figures.
import http from 'node:http'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { chromiumArgs, chromiumPath, repoRoot, signIn, startPlayground } from '../support/playground.mjs'
import { bigWorkflow, installMock } from './editor-api.mjs'

const args = process.argv.slice(2)
const RUNS = Number(args.includes('--runs') ? args[args.indexOf('--runs') + 1] : 15)
const FAKE = args.includes('--fake')
const FILE = 'big.vai-workflow.json'
const dist = path.join(repoRoot, 'web', 'dist')
if (!existsSync(path.join(dist, 'index.html'))) throw new Error('web/dist is missing: run `npm run build -w web` first')

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]
const summary = (v) => ({ n: v.length, median: Math.round(median(v) * 10) / 10, max: Math.round(Math.max(...v) * 10) / 10 })

/** The editor's lazy chunks (everything index.html does not load), gzip -9. */
function chunkSizes() {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8')
  const initial = new Set([...html.matchAll(/assets\/([^"]+\.js)/g)].map((m) => m[1]))
  const sizes = { initial: 0, lazy: 0, lazyChunks: {} }
  for (const file of readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'))) {
    const gz = gzipSync(readFileSync(path.join(dist, 'assets', file)), { level: 9 }).length
    if (initial.has(file)) sizes.initial += gz
    else {
      sizes.lazy += gz
      sizes.lazyChunks[file] = gz
    }
  }
  return sizes
}

function serve() {
  const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x')
    let file = path.join(dist, url.pathname)
    if (url.pathname === '/' || !existsSync(file)) file = path.join(dist, 'index.html')
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' })
    res.end(readFileSync(file))
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** In the page: run `act`, resolve with the time until `changed()` holds and a frame is painted. */
function timed(page, act, changed, arg) {
  return page.evaluate(
    async ({ act, changed, arg }) => {
      const doAct = new Function('arg', act)
      const isChanged = new Function('arg', 'before', changed)
      const before = isChanged(arg, undefined)
      const done = new Promise((resolve) => {
        const obs = new MutationObserver(() => {
          if (!isChanged(arg, before)) return
          obs.disconnect()
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0))
        })
        obs.observe(document.querySelector('.react-flow'), { childList: true, subtree: true, attributes: true })
      })
      const t0 = performance.now()
      doAct(arg)
      return (await done) - t0
    },
    { act, changed, arg },
  )
}

// `changed` bodies: with `before` undefined they return the current value to compare with.
const MINIMAP_COUNT = `const n = document.querySelectorAll('.react-flow__minimap-node').length; return before === undefined ? n : n === before + arg.delta`
const EDGE_COUNT = `const n = document.querySelectorAll('.react-flow__edge').length; return before === undefined ? n : n > before`

/** The page's origin and a signed-in browser context: the real server, or web/dist with the API faked. */
async function setUp(browser) {
  const viewport = { width: 1600, height: 1000 }
  if (FAKE) {
    const server = await serve()
    const context = await browser.newContext({ viewport })
    const page = await context.newPage()
    await installMock(page, { [FILE]: bigWorkflow() })
    return { page, base: `http://127.0.0.1:${server.address().port}`, close: async () => server.close() }
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vai-bench-editor-'))
  writeFileSync(path.join(dir, FILE), `${JSON.stringify(bigWorkflow(), null, 2)}\n`)
  const playground = await startPlayground({ cwd: dir })
  const context = await browser.newContext({ viewport })
  await signIn(context, playground.printedUrl)
  const page = await context.newPage()
  return {
    page,
    base: playground.url,
    close: async () => {
      await playground.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** In the page: sets a React-controlled input's value as typing would, then presses Enter. */
const ENTER_ID = `const input = document.querySelector('[data-field="id"]');
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, arg.id);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));`

const loadBefore = os.loadavg()
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
const { page, base, close } = await setUp(browser)
try {
  await page.goto(`${base}/?workflow=file:${FILE}`)
  // Fit view keeps titles legible, so 200 steps are shown from their start: the first layer.
  await page.getByTestId('node-s0_0').waitFor()
  await page.getByRole('button', { name: 'Edit' }).click()
  await page.getByRole('toolbar', { name: 'Editing' }).waitFor()
  await page.waitForTimeout(1500)
  // Zoomed out until the whole workflow is on screen, as the figures have always been taken:
  // every node drawn, and every node the steps below click in view.
  const wholeInView = () =>
    page.evaluate(() => {
      const pane = document.querySelector('main[aria-label="Canvas"] .react-flow').getBoundingClientRect()
      return ['node-s0_0', 'node-s19_9', 'node-s0_9', 'node-s19_0'].every((id) => {
        const r = document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect()
        return r && r.left >= pane.left && r.right <= pane.right && r.top >= pane.top && r.bottom <= pane.bottom
      })
    })
  for (let i = 0; i < 12 && !(await wholeInView()); i++) {
    await page.getByRole('button', { name: 'Zoom Out' }).click()
    await page.waitForTimeout(300)
  }

  const connect = []
  for (let i = 0; i < Math.min(RUNS, 8); i++) {
    await page.getByTestId(`node-s${i + 2}_0`).click()
    await page.getByRole('button', { name: 'Connect to…' }).click()
    const menu = page.getByRole('dialog', { name: /^Connect s/ })
    await menu.getByRole('combobox', { name: 'To' }).click()
    await page.getByRole('option', { name: `s${i + 10}_5`, exact: true }).click()
    await menu.getByRole('button', { name: /^text/ }).waitFor()
    await page.waitForTimeout(300)
    connect.push(
      await timed(
        page,
        `[...document.querySelectorAll('[role="dialog"] [role="button"]')].find((b) => b.textContent.startsWith('text')).click()`,
        EDGE_COUNT,
        {},
      ),
    )
    await page.waitForTimeout(300)
  }

  // One character at the end of s4_4's text: its node's summary line shows it.
  const value = []
  await page.getByTestId('node-s4_4').click()
  const text = page.locator('[data-field="inputs.text"]')
  await text.click()
  await page.keyboard.press('End')
  for (let i = 0; i < RUNS; i++) {
    value.push(
      await timed(
        page,
        `document.execCommand('insertText', false, 'x')`,
        `const t = document.querySelector('[data-testid="node-s4_4"]').textContent; return before === undefined ? t : t !== before`,
        {},
      ),
    )
    await page.waitForTimeout(200)
  }

  // Renames of s6_6 (read by two steps of the next layer): the node shows its new id.
  const rename = []
  let id = 's6_6'
  await page.getByTestId(`node-${id}`).click()
  for (let i = 0; i < RUNS; i++) {
    const next = `r${i}`
    rename.push(
      await timed(page, ENTER_ID, `return before === undefined ? false : document.querySelector('[data-testid="node-' + arg.id + '"]') !== null`, { id: next }),
    )
    id = next
    await page.waitForTimeout(300)
  }

  // React Flow's `data-id` is the node's key: the step's id when editing started (s5_5 keeps
  // it; a renamed step's node keeps its old one, see web/src/editor/doc/nodeKeys.ts).
  const move = []
  await page.getByTestId('node-s5_5').click()
  for (let i = 0; i < RUNS; i++) {
    move.push(
      await timed(
        page,
        `document.querySelector('[data-id="s5_5"]').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }))`,
        `const t = document.querySelector('[data-id="s5_5"]').style.transform; return before === undefined ? t : t !== before`,
        {},
      ),
    )
    await page.waitForTimeout(200)
  }

  const add = []
  const undoAdd = []
  for (let i = 0; i < RUNS; i++) add.push(await timed(page, `document.querySelector('[data-testid="palette-template"]').click()`, MINIMAP_COUNT, { delta: 1 }))
  const ctrlZ = `document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, bubbles: true }))`
  for (let i = 0; i < RUNS; i++) undoAdd.push(await timed(page, ctrlZ, MINIMAP_COUNT, { delta: -1 }))

  const steps = Array.from({ length: 50 }, (_, i) => ({
    id: `p${i}`,
    tool: 'template',
    inputs: { text: i === 0 ? '{{ inputs.query }}' : `{{ p${i - 1}.output.text }}` },
  }))
  const paste = `const dt = new DataTransfer(); dt.setData('text/plain', arg.text); document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true }))`
  const undoPaste = []
  for (let i = 0; i < Math.min(RUNS, 5); i++) {
    await timed(page, paste, MINIMAP_COUNT, { delta: 50, text: JSON.stringify({ steps }) })
    await page.waitForTimeout(400)
    undoPaste.push(await timed(page, ctrlZ, MINIMAP_COUNT, { delta: -50 }))
    await page.waitForTimeout(400)
  }

  const round2 = (v) => v.map((x) => Math.round(x * 100) / 100)
  const result = {
    server: FAKE ? 'fake (in-page API)' : 'vai playground (release)',
    machine: { cpus: os.cpus().length, loadBefore: round2(loadBefore), loadAfter: round2(os.loadavg()) },
    chunksGzipBytes: chunkSizes(),
    ms: {
      value: summary(value),
      connect: summary(connect),
      rename: summary(rename),
      add: summary(add),
      move: summary(move),
      undoAdd: summary(undoAdd),
      undoPaste50: summary(undoPaste),
    },
  }
  console.log(JSON.stringify(result, null, 2))
} finally {
  await browser.close()
  await close()
}
