// The local server refuses what a page on another site (or a DNS-rebound name) could send it:
// a foreign Origin or Host is 403 FORBIDDEN_ORIGIN, and so is a WebSocket upgrade from one.
import http from 'node:http';
import WebSocket from 'ws';
import { expect, test } from '../support/test';

function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

function wsOpen(url: string, origin: string) {
  return new Promise<{ opened: boolean; status?: number; first?: unknown }>((resolve) => {
    const ws = new WebSocket(url, { origin });
    ws.on('message', (data) => {
      resolve({ opened: true, first: JSON.parse(data.toString()) });
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve({ opened: false, status: res.statusCode });
      res.resume();
    });
    ws.on('error', () => resolve({ opened: false }));
  });
}

test('a request with a foreign Origin is refused', async ({ request, baseURL }) => {
  const foreign = await request.get('/api/workflows', { headers: { Origin: 'http://evil.example' } });
  expect(foreign.status()).toBe(403);
  expect((await foreign.json()).error.code).toBe('FORBIDDEN_ORIGIN');

  const post = await request.post('/api/runs', {
    headers: { Origin: 'http://evil.example' },
    data: { definition: {} },
  });
  expect(post.status()).toBe(403);

  const own = await request.get('/api/workflows', { headers: { Origin: baseURL! } });
  expect(own.status()).toBe(200);
  expect((await own.json()).workflows.length).toBeGreaterThan(0);
});

test('a request for a foreign Host (DNS rebinding) is refused', async ({ baseURL }) => {
  const url = `${baseURL}/api/workflows`;
  const port = new URL(baseURL!).port;
  const rebound = await rawGet(url, { Host: `evil.example:${port}` });
  expect(rebound.status).toBe(403);
  expect(JSON.parse(rebound.body).error.code).toBe('FORBIDDEN_ORIGIN');
  expect((await rawGet(url, { Host: `localhost:${port}` })).status).toBe(200);
});

test('the WebSocket upgrade requires the playground Origin', async ({ baseURL }) => {
  const wsUrl = `${baseURL!.replace(/^http/, 'ws')}/api/ws`;
  const foreign = await wsOpen(wsUrl, 'http://evil.example');
  expect(foreign.opened).toBe(false);
  expect(foreign.status).toBe(403);

  const own = await wsOpen(wsUrl, baseURL!);
  expect(own.opened).toBe(true);
  expect(own.first).toMatchObject({ type: 'hello' });
});
