// The local server refuses what a page on another site (or a DNS-rebound name) could send it:
// a foreign Origin or Host is 403 FORBIDDEN_ORIGIN, and so is a WebSocket upgrade from one.
// And what any local process could send it: without the access token (the cookie the printed
// URL sets, or a Bearer header) every /api request and the WebSocket upgrade is 401.
import http from 'node:http'
import WebSocket from 'ws'
import { expect, regions, test } from '../support/test'

function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let body = ''
      res.on('data', (c) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
  })
}

function wsOpen(url: string, origin: string, headers: Record<string, string> = {}) {
  return new Promise<{ opened: boolean; status?: number; first?: unknown }>((resolve) => {
    const ws = new WebSocket(url, { origin, headers })
    ws.on('message', (data) => {
      resolve({ opened: true, first: JSON.parse(data.toString()) })
      ws.close()
    })
    ws.on('unexpected-response', (_req, res) => {
      resolve({ opened: false, status: res.statusCode })
      res.resume()
    })
    ws.on('error', () => resolve({ opened: false }))
  })
}

test('a request with a foreign Origin is refused', async ({ request, baseURL }) => {
  const foreign = await request.get('/api/workflows', { headers: { Origin: 'http://evil.example' } })
  expect(foreign.status()).toBe(403)
  expect((await foreign.json()).error.code).toBe('FORBIDDEN_ORIGIN')

  const post = await request.post('/api/runs', {
    headers: { Origin: 'http://evil.example' },
    data: { definition: {} },
  })
  expect(post.status()).toBe(403)

  const own = await request.get('/api/workflows', { headers: { Origin: baseURL! } })
  expect(own.status()).toBe(200)
  expect((await own.json()).workflows.length).toBeGreaterThan(0)
})

test('a request for a foreign Host (DNS rebinding) is refused', async ({ baseURL, token }) => {
  const url = `${baseURL}/api/workflows`
  const port = new URL(baseURL!).port
  const bearer = { Authorization: `Bearer ${token}` }
  const rebound = await rawGet(url, { ...bearer, Host: `evil.example:${port}` })
  expect(rebound.status).toBe(403)
  expect(JSON.parse(rebound.body).error.code).toBe('FORBIDDEN_ORIGIN')
  expect((await rawGet(url, { ...bearer, Host: `localhost:${port}` })).status).toBe(200)
})

test('the WebSocket upgrade requires the playground Origin', async ({ baseURL, token }) => {
  const wsUrl = `${baseURL!.replace(/^http/, 'ws')}/api/ws`
  const bearer = { Authorization: `Bearer ${token}` }
  const foreign = await wsOpen(wsUrl, 'http://evil.example', bearer)
  expect(foreign.opened).toBe(false)
  expect(foreign.status).toBe(403)

  const own = await wsOpen(wsUrl, baseURL!, bearer)
  expect(own.opened).toBe(true)
  expect(own.first).toMatchObject({ type: 'hello' })
})

test('without the access token the API and the WebSocket answer 401', async ({ baseURL, token }) => {
  const attempts: Record<string, string>[] = [{}, { Authorization: 'Bearer not-the-token-0123456789' }]
  for (const headers of attempts) {
    const refused = await rawGet(`${baseURL}/api/workflows`, headers)
    expect(refused.status).toBe(401)
    const body = JSON.parse(refused.body)
    expect(body.error.code).toBe('UNAUTHORIZED')
    expect(body.error.message).toContain('vai playground')
  }
  const wsUrl = `${baseURL!.replace(/^http/, 'ws')}/api/ws`
  const refused = await wsOpen(wsUrl, baseURL!)
  expect(refused.opened).toBe(false)
  expect(refused.status).toBe(401)
  // The same requests with the token go through.
  expect((await rawGet(`${baseURL}/api/workflows`, { Authorization: `Bearer ${token}` })).status).toBe(200)
})

test.describe('a browser without the cookie', () => {
  test.use({ storageState: { cookies: [], origins: [] } })

  test('is told to open the printed link, and that link lets it in without keeping the token in view', async ({ page, printedUrl }) => {
    await page.goto('/?workflow=builtin:multi-collection-search')
    await expect(page.getByRole('alert')).toContainText('This page needs the link vai playground printed, which carries an access token')
    await expect(regions(page).library).toHaveCount(0)

    const link = new URL(printedUrl)
    link.searchParams.set('workflow', 'builtin:multi-collection-search')
    await page.goto(link.toString())
    const landed = new URL(page.url())
    expect(landed.searchParams.has('token')).toBe(false)
    expect(landed.searchParams.get('workflow')).toBe('builtin:multi-collection-search')
    await expect(page.getByTestId('node-__inputs')).toBeVisible()
    await expect(
      regions(page)
        .library.getByRole('button', { name: /^Multi-Collection Search/ })
        .first(),
    ).toBeVisible()
    const cookie = (await page.context().cookies()).find((c) => c.name.startsWith('vai_token_'))
    expect(cookie?.httpOnly).toBe(true)
    expect(cookie?.sameSite).toBe('Strict')
  })
})
