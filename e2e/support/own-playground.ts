// A `vai playground` of a spec's own (its own home, data and folder), for specs whose runs must
// not reach other specs' pages: the app follows a run of the open workflow started elsewhere, so
// on the shared server a run of a built-in can be taken up by another spec's page that has the
// same workflow open (and the other way round). It starts in about a second and a half.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { authHeaders, startPlayground } from './playground.mjs'
import { expect, node, test } from './test'

export interface OwnPlayground {
  /** The origin, without a trailing slash. */
  readonly url: string
  /** The folder it was started in: its `file:` workflows. */
  readonly dir: string
  /** Signs `page` in (the printed URL trades its token for a cookie), then opens `path` there. */
  goto(page: Page, path: string): Promise<void>
  /** Opens workflow `id` and waits for its graph. */
  openWorkflow(page: Page, id: string): Promise<void>
  /** `GET path` with the access token, as a script would; the JSON answer. */
  get<T>(path: string): Promise<T>
}

/** Starts a playground before the tests of the calling file (or describe block) and stops it after. */
export function ownPlayground(): OwnPlayground {
  let server: Awaited<ReturnType<typeof startPlayground>> | undefined
  let dir = ''
  test.beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vai-e2e-own-'))
    server = await startPlayground({ cwd: dir })
  })
  test.afterAll(async () => {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  const started = () => {
    if (!server) throw new Error('ownPlayground(): the server starts in beforeAll')
    return server
  }
  const signedIn = new WeakSet<Page>()
  const own: OwnPlayground = {
    get url() {
      return started().url
    },
    get dir() {
      return dir
    },
    goto: async (page, to) => {
      if (!signedIn.has(page)) {
        await page.goto(started().printedUrl)
        signedIn.add(page)
      }
      await page.goto(started().url + to)
    },
    openWorkflow: async (page, id) => {
      await own.goto(page, `/?workflow=${encodeURIComponent(id)}`)
      await expect(node(page, '__inputs')).toBeVisible()
    },
    get: async <T>(to: string) => {
      const response = await fetch(started().url + to, { headers: authHeaders(started().token) })
      expect(response.ok, `GET ${to}: ${response.status}`).toBeTruthy()
      return (await response.json()) as T
    },
  }
  return own
}
