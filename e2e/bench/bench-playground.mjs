// Playground benchmarks (docs/benchmarks.md, "Playground"). Not a test: it prints figures and
// writes them as JSON; nothing fails on a slow number. Run with the release binary built:
//
//   npm run bench:playground                 (from the repository root)
//   node e2e/bench/bench-playground.mjs [--only startup,memory,bundle,ws,render] [--runs 20]
//
// Measured, each with the release `vai playground --no-open` in the isolated offline
// environment the e2e specs use (support/playground.mjs):
//   startup  process spawn → first byte of `GET /` (the client retries the connection every
//            millisecond until the port accepts), repeated --runs times; median and p95.
//   memory   VmRSS (/proc/<pid>/status). First start on an empty data directory: when the URL
//            is printed, and after the background seeding of the sample knowledge base (with
//            its peak). Then a second start on that seeded directory (every later start): idle
//            2 s after start; after Chromium opened /?workflow=builtin:multi-collection-search;
//            after a run of it (which loads the embedding model).
//   bundle   gzip -9 size of every script web/dist/index.html references (script src and
//            modulepreload), summed; plus the bytes the server sends for them with
//            Accept-Encoding: gzip.
//   ws       engine → client event latency: a workflow of 100 chained http steps, each calling
//            a loopback server in this process which answers at once and notes the time it
//            finished the response; a `ws` client in the same process notes when that step's
//            step_completed arrives. latency = arrival − response end: the tool finishing,
//            the engine emitting the event, the server serialising it and the socket carrying
//            it (an upper bound of engine → socket). 3 runs, 300 samples.
//   render   a generated 200-step workflow (20 layers of 10 template steps, each reading two of
//            the layer before) opened with /?workflow=file:… in headless Chromium, 5 fresh
//            pages: time from navigation start until the first node appears and until all 202
//            nodes are in the document and visible; the same for the 4-step
//            multi-collection-search (the app's own boot); then frame intervals
//            (requestAnimationFrame) during a scripted pan, wheel zoom and pan.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import WebSocket from 'ws'
import { authHeaders, chromiumArgs, chromiumPath, isolatedEnv, repoRoot, signIn, startPlayground, vaiBinary } from '../support/playground.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : fallback
}
const only = new Set(opt('only', 'startup,memory,bundle,ws,render').split(','))
const RUNS = Number(opt('runs', '20'))

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d
function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b)
  if (s.length === 0) return NaN
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))
  return s[i]
}
const stats = (v) => ({
  n: v.length,
  min: round(Math.min(...v), 2),
  median: round(quantile(v, 0.5), 2),
  p95: round(quantile(v, 0.95), 2),
  p99: round(quantile(v, 0.99), 2),
  max: round(Math.max(...v), 2),
})

function rssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const get = (k) => Number(status.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm'))?.[1])
  return { rss: get('VmRSS'), hwm: get('VmHWM') }
}
const mib = (kib) => round(kib / 1024, 1)

async function freePort() {
  const srv = net.createServer()
  await new Promise((r) => srv.listen(0, '127.0.0.1', r))
  const { port } = srv.address()
  await new Promise((r) => srv.close(r))
  return port
}

/** Spawn → first byte of `GET /`, connecting every millisecond until the port accepts. */
async function timeToFirstByte() {
  const port = await freePort()
  const home = mkdtempSync(path.join(os.tmpdir(), 'vai-bench-'))
  const t0 = performance.now()
  const child = spawn(vaiBinary(), ['playground', '--port', String(port), '--no-open'], {
    cwd: home,
    env: isolatedEnv(home),
    stdio: 'ignore',
  })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`vai playground exited with ${child.exitCode}`)
      const t = await new Promise((resolve) => {
        const sock = net.connect(port, '127.0.0.1')
        sock.once('connect', () => {
          sock.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`)
        })
        sock.once('data', () => {
          resolve(performance.now() - t0)
          sock.destroy()
        })
        sock.once('error', () => resolve(undefined))
      })
      if (t !== undefined) return t
      if (performance.now() - t0 > 10_000) throw new Error('no response within 10 s')
      await sleep(1)
    }
  } finally {
    child.kill('SIGKILL')
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)))
    rmSync(home, { recursive: true, force: true })
  }
}

async function benchStartup() {
  await timeToFirstByte() // warm the page cache
  const samples = []
  for (let i = 0; i < RUNS; i++) samples.push(await timeToFirstByte())
  return { ms: stats(samples) }
}

async function launch() {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
}

async function benchMemory() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'vai-bench-home-'))
  const out = {}
  try {
    // First start on an empty data directory: the server seeds the sample knowledge base in
    // the background (loading the embedding model). Peak and settled figures of that.
    let seeded
    const seededLine = new Promise((r) => (seeded = r))
    const first = await startPlayground({
      home,
      onOutput: (t) => /sample knowledge base/.test(t) && seeded(),
    })
    out.firstStartAtUrlMiB = mib(rssKiB(first.child.pid).rss)
    const t0 = performance.now()
    await Promise.race([seededLine, sleep(120_000)])
    out.firstStartSeedSeconds = round((performance.now() - t0) / 1000, 1)
    await sleep(2000)
    const afterSeed = rssKiB(first.child.pid)
    out.firstStartAfterSeedMiB = mib(afterSeed.rss)
    out.firstStartPeakMiB = mib(afterSeed.hwm)
    await first.stop()

    // Every later start: the sample is in place, nothing to seed.
    const pg = await startPlayground({ home })
    const pid = pg.child.pid
    const browser = await launch()
    try {
      await sleep(2000)
      out.idleMiB = mib(rssKiB(pid).rss)
      const context = await browser.newContext()
      await signIn(context, pg.printedUrl)
      const page = await context.newPage()
      await page.goto(`${pg.url}/?workflow=builtin:multi-collection-search`)
      await page.getByTestId('node-rerank_all').waitFor()
      await sleep(2000)
      out.openedMiB = mib(rssKiB(pid).rss)
      const res = await fetch(`${pg.url}/api/runs`, {
        method: 'POST',
        headers: { ...authHeaders(pg.token), 'content-type': 'application/json' },
        body: JSON.stringify({
          definition: JSON.parse(readFileSync(path.join(repoRoot, 'workflows', 'multi-collection-search.json'), 'utf8')),
          inputs: { query: 'how does authentication work' },
        }),
      })
      const { runId } = await res.json()
      for (let i = 0; i < 1200; i++) {
        const snap = await (await fetch(`${pg.url}/api/runs/${runId}`, { headers: authHeaders(pg.token) })).json()
        if (snap.status !== 'running') break
        await sleep(100)
      }
      await sleep(1000)
      const afterRun = rssKiB(pid)
      out.afterRunMiB = mib(afterRun.rss)
      out.peakMiB = mib(afterRun.hwm)
    } finally {
      await browser.close()
      await pg.stop()
    }
    return out
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

async function benchBundle() {
  const dist = path.join(repoRoot, 'web', 'dist')
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8')
  const refs = new Set()
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) refs.add(m[1])
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) refs.add(m[1])
  for (const m of html.matchAll(/<link[^>]*href="([^"]+)"[^>]*rel="modulepreload"/g)) refs.add(m[1])
  const files = []
  for (const ref of refs) {
    const file = path.join(dist, ref.replace(/^\//, ''))
    const raw = readFileSync(file)
    files.push({ ref, bytes: raw.length, gzip: gzipSync(raw, { level: 9 }).length })
  }
  const total = files.reduce((a, f) => a + f.gzip, 0)
  // What the server actually sends for them, compressed.
  const pg = await startPlayground()
  let served = 0
  try {
    for (const f of files) {
      served += await new Promise((resolve, reject) => {
        http
          .get(`${pg.url}${f.ref}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
            let n = 0
            res.on('data', (c) => (n += c.length))
            res.on('end', () => resolve(n))
          })
          .on('error', reject)
      })
    }
  } finally {
    await pg.stop()
  }
  return {
    files,
    gzipKB: round(total / 1000, 1),
    rawKB: round(files.reduce((a, f) => a + f.bytes, 0) / 1000, 1),
    servedKB: round(served / 1000, 1),
  }
}

/** N http steps in a chain, each reading the previous one's status. */
function chainWorkflow(base, n) {
  const steps = []
  for (let i = 0; i < n; i++) {
    const prev = i === 0 ? '' : `?prev={{ s${i - 1}.output.status }}`
    steps.push({ id: `s${i}`, name: `call ${i}`, tool: 'http', inputs: { url: `${base}/step/${i}${prev}` } })
  }
  return { name: `ws latency chain ${n}`, version: '1.0.0', steps, output: `{{ s${n - 1}.output.status }}` }
}

async function benchWs() {
  const ended = new Map() // step id → performance.now() when the response ended
  const server = http.createServer((req, res) => {
    const i = Number(req.url.match(/\/step\/(\d+)/)?.[1])
    // The first step waits so the socket's subscription is in place before timing starts.
    setTimeout(
      () => {
        res.end('{"ok":true}', () => ended.set(`s${i}`, performance.now()))
      },
      i === 0 ? 300 : 0,
    )
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  const base = `http://127.0.0.1:${server.address().port}`
  const pg = await startPlayground()
  const samples = []
  try {
    const definition = chainWorkflow(base, 100)
    for (let run = 0; run < 3; run++) {
      ended.clear()
      const arrived = new Map()
      const ws = new WebSocket(`${pg.url.replace(/^http/, 'ws')}/api/ws`, {
        origin: pg.url,
        headers: authHeaders(pg.token),
      })
      await new Promise((resolve, reject) => {
        ws.once('message', resolve) // hello
        ws.once('error', reject)
      })
      const done = new Promise((resolve) => {
        ws.on('message', (data) => {
          const now = performance.now()
          const msg = JSON.parse(data.toString())
          if (msg.type !== 'event') return
          if (msg.event.type === 'step_completed') arrived.set(msg.event.stepId, now)
          if (msg.event.type === 'run_finished') resolve(msg.event)
        })
      })
      const res = await fetch(`${pg.url}/api/runs`, {
        method: 'POST',
        headers: { ...authHeaders(pg.token), 'content-type': 'application/json' },
        body: JSON.stringify({ definition }),
      })
      const { runId } = await res.json()
      ws.send(JSON.stringify({ type: 'subscribe', runId }))
      const finished = await done
      if (finished.status !== 'completed') throw new Error(`run ${finished.status}: ${finished.error}`)
      ws.close()
      for (const [id, t] of arrived) {
        if (id !== 's0' && ended.has(id)) samples.push(t - ended.get(id))
      }
    }
  } finally {
    await pg.stop()
    server.closeAllConnections()
    server.close()
  }
  const within = (ms) => samples.filter((x) => x <= ms).length
  return {
    ms: stats(samples),
    count: { le1ms: within(1), le5ms: within(5), le10ms: within(10), le50ms: within(50), all: samples.length },
  }
}

/** 200 steps: 20 layers of 10 template steps, each reading two steps of the layer before. */
function wideWorkflow() {
  const steps = []
  for (let layer = 0; layer < 20; layer++) {
    for (let k = 0; k < 10; k++) {
      const id = `l${layer}_${k}`
      const text = layer === 0 ? `{{ inputs.topic }} ${k}` : `{{ l${layer - 1}_${k}.output.text }} + {{ l${layer - 1}_${(k + 1) % 10}.output.charCount }}`
      steps.push({ id, name: `Step ${layer}.${k}`, tool: 'template', inputs: { text } })
    }
  }
  return {
    name: 'Two hundred steps',
    description: 'benchmark: 20 layers of 10 template steps',
    version: '1.0.0',
    inputs: { topic: { type: 'string', default: 'bench' } },
    steps,
    output: { last: '{{ l19_0.output.text }}' },
  }
}

/**
 * Navigation start → every one of `want` nodes in the document and visible, for `runs` fresh
 * pages; also when the first node appeared (the app has booted and drawn something).
 */
async function timeToDraw(context, url, want, runs, afterLast) {
  const drawn = []
  const first = []
  let extra
  for (let i = 0; i < runs; i++) {
    const page = await context.newPage()
    await page.addInitScript((want) => {
      const tick = () => {
        const nodes = document.querySelectorAll('[data-testid^="node-"]')
        if (nodes.length > 0 && window.__vaiFirst === undefined) window.__vaiFirst = performance.now()
        if (nodes.length >= want && Array.from(nodes).every((n) => n.checkVisibility({ visibilityProperty: true }))) {
          window.__vaiDrawn = performance.now()
          return
        }
        requestAnimationFrame(tick)
      }
      requestAnimationFrame(tick)
    }, want)
    await page.goto(url)
    await page.waitForFunction(() => window.__vaiDrawn !== undefined, null, { timeout: 30_000 })
    const t = await page.evaluate(() => [window.__vaiFirst, window.__vaiDrawn])
    first.push(t[0])
    drawn.push(t[1])
    if (i === runs - 1 && afterLast) extra = await afterLast(page)
    await page.close()
  }
  return { firstNodeMs: stats(first), drawnMs: stats(drawn), extra }
}

async function benchRender() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vai-bench-wf-'))
  writeFileSync(path.join(dir, 'two-hundred.vai-workflow.json'), JSON.stringify(wideWorkflow(), null, 2))
  const pg = await startPlayground({ cwd: dir })
  const browser = await launch()
  try {
    // Signed in once, as a person is: the cookie the printed URL sets serves every page below.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    await signIn(context, pg.printedUrl)
    // The app's own boot, for comparison: a 4-step built-in (6 nodes with inputs and output).
    const small = await timeToDraw(context, `${pg.url}/?workflow=builtin:multi-collection-search`, 6, 5)
    const big = await timeToDraw(context, `${pg.url}/?workflow=${encodeURIComponent('file:two-hundred.vai-workflow.json')}`, 202, 5, panAndZoom)
    return {
      steps200: { firstNodeMs: big.firstNodeMs, drawnMs: big.drawnMs },
      steps4: { firstNodeMs: small.firstNodeMs, drawnMs: small.drawnMs },
      frames: big.extra,
    }
  } finally {
    await browser.close()
    await pg.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Frame intervals while the mouse pans the canvas and the wheel zooms it, for ~3 s. */
async function panAndZoom(page) {
  const box = await page.getByRole('main', { name: 'Canvas' }).boundingBox()
  const cx = box.x + box.width / 2
  const cy = box.y + box.height / 2
  await page.evaluate(() => {
    window.__frames = []
    const loop = (t) => {
      window.__frames.push(t)
      if (!window.__stopFrames) requestAnimationFrame(loop)
    }
    requestAnimationFrame(loop)
  })
  await page.mouse.move(cx, cy)
  await page.mouse.down()
  for (let i = 0; i < 60; i++) await page.mouse.move(cx - i * 8, cy - Math.sin(i / 6) * 120)
  await page.mouse.up()
  for (let i = 0; i < 30; i++) {
    await page.mouse.wheel(0, i < 15 ? -120 : 120)
    await sleep(16)
  }
  await page.mouse.move(cx, cy)
  await page.mouse.down()
  for (let i = 0; i < 60; i++) await page.mouse.move(cx + i * 8, cy + Math.cos(i / 6) * 120)
  await page.mouse.up()
  const t = await page.evaluate(() => {
    window.__stopFrames = true
    return window.__frames
  })
  const intervals = t.slice(1).map((x, i) => x - t[i])
  const secs = (t[t.length - 1] - t[0]) / 1000
  return {
    frames: t.length,
    seconds: round(secs, 2),
    fps: round(t.length / secs, 1),
    intervalMs: stats(intervals),
    over50ms: intervals.filter((x) => x > 50).length,
  }
}

function machine() {
  const cpus = os.cpus()
  return {
    cpu: `${cpus.length} × ${cpus[0]?.model ?? 'unknown'}`,
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    kernel: os.release(),
    node: process.version,
    binaryMB: round(statSync(vaiBinary()).size / 1e6, 1),
    load: os.loadavg().map((x) => round(x, 2)),
  }
}

const results = { date: new Date().toISOString(), machine: machine() }
const browserVersion = async () => {
  const b = await launch()
  const v = b.version()
  await b.close()
  return v
}
results.machine.chromium = await browserVersion()
console.error(`machine: ${JSON.stringify(results.machine)}`)

const steps = { startup: benchStartup, memory: benchMemory, bundle: benchBundle, ws: benchWs, render: benchRender }
for (const [name, fn] of Object.entries(steps)) {
  if (!only.has(name)) continue
  console.error(`==> ${name}`)
  results[name] = await fn()
  console.error(JSON.stringify(results[name], null, 2))
}

const outDir = path.join(here, '..', 'test-results')
mkdirSync(outDir, { recursive: true })
writeFileSync(path.join(outDir, 'bench-playground.json'), JSON.stringify(results, null, 2))
console.log(JSON.stringify(results, null, 2))
