// The `test` every spec imports: Playwright's, with baseURL pointing at the playground the
// global setup started, pages signed in (the setup opened the printed URL; its cookie is in the
// saved browser state), `request` sending the access token as a Bearer header as a script
// would, plus the page regions and helpers named in the UI test hooks.
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import type { GraphView, PlanResponse, WorkflowDocument } from '../../web/src/api/types'

// The wire types come from the server's contract (generated into the web app), never copied.
export type { GraphView }

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: run the specs through playwright.config.ts`)
  return value
}

export const test = base.extend<{ slowUrl: string; token: string; printedUrl: string }>({
  baseURL: async ({}, use) => {
    await use(required('VAI_PLAYGROUND_URL'))
  },
  slowUrl: async ({}, use) => {
    await use(required('VAI_E2E_SLOW_URL'))
  },
  token: async ({}, use) => {
    await use(required('VAI_PLAYGROUND_TOKEN'))
  },
  printedUrl: async ({}, use) => {
    await use(required('VAI_PLAYGROUND_PRINTED_URL'))
  },
  request: async ({ playwright, baseURL, token }, use) => {
    const request = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { authorization: `Bearer ${token}` },
    })
    await use(request)
    await request.dispose()
  },
})

export { expect }

/** The landmark regions of the app shell. */
export function regions(page: Page) {
  return {
    library: page.getByRole('navigation', { name: 'Library' }),
    canvas: page.getByRole('main', { name: 'Canvas' }),
    inspector: page.getByRole('complementary', { name: 'Inspector' }),
    runBar: page.getByRole('region', { name: 'Run' }),
  }
}

export function node(page: Page, id: string): Locator {
  return page.getByTestId(`node-${id}`)
}

export function runStatus(page: Page): Locator {
  return page.getByTestId('run-status')
}

/** The diagnostics list: `role="alert"` or `data-testid="diagnostics"`. */
export function diagnostics(page: Page): Locator {
  return page.getByTestId('diagnostics').or(page.getByRole('alert'))
}

/** Open a workflow by id through the URL and wait for its graph to be drawn. */
export async function openWorkflow(page: Page, id: string) {
  await page.goto(`/?workflow=${encodeURIComponent(id)}`)
  await expect(node(page, '__inputs')).toBeVisible()
}

/** The graph the server plans for a stored workflow: what the canvas must draw. */
export async function planOf(request: APIRequestContext, id: string): Promise<GraphView> {
  const doc = await request.get(`/api/workflows/${encodeURIComponent(id)}`)
  expect(doc.ok(), `GET /api/workflows/${id}`).toBeTruthy()
  const { definition } = (await doc.json()) as WorkflowDocument
  const plan = await request.post('/api/workflows/plan', { data: { definition } })
  expect(plan.ok(), 'POST /api/workflows/plan').toBeTruthy()
  const body = (await plan.json()) as PlanResponse
  expect(body.graph, 'plan has a graph').toBeTruthy()
  return body.graph as GraphView
}

/**
 * Everything a node says about itself: its text plus every `title`/`aria-label` on or inside
 * it (the hooks allow an error or skip reason to be either).
 */
export async function nodeText(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const parts = [el.textContent ?? '']
    for (const e of [el, ...Array.from(el.querySelectorAll('[title],[aria-label]'))]) {
      parts.push(e.getAttribute('title') ?? '', e.getAttribute('aria-label') ?? '')
    }
    return parts.join(' ')
  })
}

/**
 * Record every `data-status` each canvas node and every text the run status shows, from now on,
 * so a spec can tell that a run was seen live and not only in its final state.
 */
export async function recordStatuses(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as {
      __vaiStatusLog: Record<string, string[]>
      __vaiRunLog: string[]
    }
    w.__vaiStatusLog = {}
    w.__vaiRunLog = []
    const scan = () => {
      for (const el of Array.from(document.querySelectorAll('[data-testid^="node-"][data-status]'))) {
        const id = el.getAttribute('data-testid')!.slice('node-'.length)
        const status = el.getAttribute('data-status')!
        const seen = (w.__vaiStatusLog[id] ??= [])
        if (seen[seen.length - 1] !== status) seen.push(status)
      }
      const run = document.querySelector('[data-testid="run-status"]')?.textContent?.trim()
      if (run && w.__vaiRunLog[w.__vaiRunLog.length - 1] !== run) w.__vaiRunLog.push(run)
    }
    scan()
    new MutationObserver(scan).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['data-status'],
    })
  })
}

export async function recordedStatuses(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as {
      __vaiStatusLog: Record<string, string[]>
      __vaiRunLog: string[]
    }
    return { steps: w.__vaiStatusLog, run: w.__vaiRunLog }
  })
}
