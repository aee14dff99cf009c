// Starts what every spec needs and hands it over through the environment (Playwright passes
// process.env set here on to the test workers): the `vai playground` binary under test on a free
// loopback port, started in a temporary copy of e2e/fixtures so the fixture files are listed as
// `file:` workflows and what the builder specs save never lands in the repository, and the slow
// loopback server the cancel spec points its http step at. Then it gets in as a
// person does — Chromium opens the URL the playground printed, which trades its access token
// for a cookie — and saves that browser state for every spec's pages (`storageState`).
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type FullConfig } from '@playwright/test'
import { authHeaders, chromiumArgs, chromiumPath, fixturesDir, signIn as visit, startPlayground } from './playground.mjs'
import { startSlowServer } from './slow-server.mjs'

export default async function globalSetup(config: FullConfig) {
  const slow = await startSlowServer({ delayMs: 20_000 })
  const dir = mkdtempSync(path.join(tmpdir(), 'vai-e2e-dir-'))
  cpSync(fixturesDir, dir, { recursive: true })
  const playground = await startPlayground({ cwd: dir })
  await warmUp(playground.url, authHeaders(playground.token))
  const statePath = process.env.VAI_E2E_STATE
  if (!statePath) throw new Error('VAI_E2E_STATE is not set: run the specs through playwright.config.ts')
  await signIn(playground.printedUrl, statePath)
  process.env.VAI_PLAYGROUND_URL = playground.url
  process.env.VAI_PLAYGROUND_TOKEN = playground.token
  process.env.VAI_PLAYGROUND_PRINTED_URL = playground.printedUrl
  process.env.VAI_E2E_SLOW_URL = slow.url
  // Where saved workflows land, and the home whose local store the server seeded: a spec
  // that runs `vai workflow …` on a saved file uses both, as a person in that directory would.
  process.env.VAI_PLAYGROUND_DIR = dir
  process.env.VAI_PLAYGROUND_HOME = playground.home
  console.log(`vai playground under test: ${playground.url} (slow server ${slow.url})`)

  return async () => {
    await playground.stop()
    await slow.close()
    rmSync(dir, { recursive: true, force: true })
    rmSync(statePath, { force: true })
    // The server's own log, for a failed run's post-mortem.
    const outputDir = config.projects[0]?.outputDir ?? fileURLToPath(new URL('../test-results', import.meta.url))
    mkdirSync(outputDir, { recursive: true })
    writeFileSync(path.join(outputDir, 'playground-server.log'), playground.output())
  }
}

/** Open the printed URL in Chromium and save the cookie it sets to `statePath`. */
async function signIn(printedUrl: string, statePath: string) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  try {
    const context = await browser.newContext()
    const landed = await visit(context, printedUrl)
    if (new URL(landed).searchParams.has('token')) {
      throw new Error(`sign-in: the token stayed in the address bar: ${landed}`)
    }
    const cookies = await context.cookies()
    if (!cookies.some((c) => c.name.startsWith('vai_token_') && c.httpOnly)) {
      throw new Error(`sign-in: no HttpOnly vai_token cookie was set (${cookies.map((c) => c.name)})`)
    }
    mkdirSync(path.dirname(statePath), { recursive: true })
    await context.storageState({ path: statePath })
  } finally {
    await browser.close()
  }
}

/**
 * A run that touches the local store waits until the server has seeded the sample knowledge
 * base (it starts seeding in the background; embedding 71 documents takes seconds, far more on
 * a busy machine), and the first query loads the embedding model. Run one such workflow once
 * so the specs time only their own work.
 */
async function warmUp(url: string, headers: Record<string, string>) {
  const doc = await fetch(`${url}/api/workflows/builtin:multi-collection-search`, { headers })
  if (!doc.ok) throw new Error(`warm-up: GET the built-in: ${doc.status} ${await doc.text()}`)
  const { definition } = await doc.json()
  const started = await fetch(`${url}/api/runs`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ definition, inputs: { query: 'warm up' } }),
  })
  if (started.status !== 201) {
    throw new Error(`warm-up run refused: ${started.status} ${await started.text()}`)
  }
  const { runId } = await started.json()
  const deadline = Date.now() + 180_000
  for (;;) {
    const run = await (await fetch(`${url}/api/runs/${runId}`, { headers })).json()
    if (run.status === 'completed') return
    if (run.status !== 'running') throw new Error(`warm-up run ${run.status}: ${run.error ?? ''}`)
    if (Date.now() > deadline) throw new Error('warm-up run still running after 180 s')
    await new Promise((r) => setTimeout(r, 200))
  }
}
