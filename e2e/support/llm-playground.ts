// A playground of a spec's own with the local LLM: the shared one has none (failures.spec.ts
// shows a `generate` step failing for want of one). It runs in a fresh directory (holding
// `vaiJson` as its .vai.json, when given) on the shared home, whose sample knowledge base the
// global setup seeded, and is stopped after the spec's tests.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startPlayground } from './playground.mjs'
import { test } from './test'

type Playground = Awaited<ReturnType<typeof startPlayground>>

/** Start the playground before the spec's tests; the returned function gives it to them. */
export function llmPlayground(name: string, vaiJson?: object): () => Playground {
  let server: Playground | undefined
  let cwd: string | undefined
  test.beforeAll(async () => {
    test.setTimeout(120_000)
    const home = process.env.VAI_PLAYGROUND_HOME
    if (!home) throw new Error('VAI_PLAYGROUND_HOME is not set: run the specs through playwright.config.ts')
    cwd = mkdtempSync(path.join(tmpdir(), `vai-e2e-${name}-`))
    if (vaiJson) writeFileSync(path.join(cwd, '.vai.json'), JSON.stringify(vaiJson))
    server = await startPlayground({ cwd, llm: true, home })
  })
  test.afterAll(async () => {
    await server?.stop()
    if (cwd) rmSync(cwd, { recursive: true, force: true })
  })
  return () => {
    if (!server) throw new Error(`the ${name} playground did not start`)
    return server
  }
}
