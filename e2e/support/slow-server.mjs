// A loopback HTTP server that answers every request after a delay: the local fake behind the
// `slow-request` fixture's http step, slow enough to cancel a run while the step is running.
import http from 'node:http'

/** Listen on 127.0.0.1 (a free port); resolves to {url, close()}. */
export async function startSlowServer({ delayMs = 20_000 } = {}) {
  const timers = new Set()
  const server = http.createServer((req, res) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ slow: true, delayMs }))
    }, delayMs)
    timers.add(timer)
    // A cancelled run drops the connection: stop waiting for it.
    res.on('close', () => {
      clearTimeout(timer)
      timers.delete(timer)
    })
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}/slow`,
    close: async () => {
      for (const t of timers) clearTimeout(t)
      server.closeAllConnections()
      await new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
