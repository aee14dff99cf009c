// Playground soak (docs/benchmarks.md, "Playground soak"). Not a test: it prints figures and
// writes them as JSON; it exits non-zero only when an event was lost or a phase broke. Run with
// the release binary built (after `npm run build -w web`):
//
//   npm run bench:soak                        (from the repository root)
//   node e2e/bench/soak.mjs [--seconds 60] [--workers 50] [--sequence 500] [--idle 1000]
//                           [--phases concurrent,sequence,outputs,idle] [--rounds 1]
//                           [--server-arg --max-sockets=1100 ...]
//
// Against the release `vai playground --no-open` in the isolated offline environment of the e2e
// specs, through the real access-token flow (the token from the printed URL, sent as a Bearer
// header on every request and WebSocket upgrade), all traffic on loopback:
//   concurrent  --workers workers for --seconds seconds, each with 2 WebSocket clients: a worker
//               starts a run (20 chained http steps, each calling a loopback server in this
//               process that answers after 100 ms), both its clients subscribe, and it starts the
//               next when the run has finished; a 429 (the run cap) is retried after 250 ms.
//               Every client must see every seq of its run after the snapshot, with no gap and
//               no duplicate, up to run_finished. Event latency = arrival of a step_completed −
//               the end of that step's loopback response (one clock: this process).
//   sequence    --sequence runs one after another (a 20 ms http step, then 5 template steps),
//               one client following each, the same completeness check.
//   outputs     one run with a ~4 MB output, then 10 parallel GETs of /api/runs/{id}/output
//               without compression: the server's peak memory while they are served.
//   idle        --idle WebSockets opened and left silent for 10 s (beyond the socket cap they are
//               refused with 503), then closed.
// With --rounds N the phases run N times on the same server: memory that grew with the load
// would show as a higher RSS after each round.
// Memory: VmRSS from /proc/<pid>/status after each phase (and 5 s after the last); each phase's
// peak is VmHWM after resetting it (writing 5 to /proc/<pid>/clear_refs) at the phase's start.
// The server measured is a second start on a data directory the first start seeded with the
// sample knowledge base, so the embedding model (loaded only to seed) is not in the figures.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import { authHeaders, startPlayground } from '../support/playground.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : fallback
}
const serverArgs = args.flatMap((a, i) => (args[i - 1] === '--server-arg' ? [a] : []))
const SECONDS = Number(opt('seconds', '60'))
const WORKERS = Number(opt('workers', '50'))
const SEQUENCE = Number(opt('sequence', '500'))
const IDLE = Number(opt('idle', '1000'))
const PHASES = new Set(opt('phases', 'concurrent,sequence,outputs,idle').split(','))
const ROUNDS = Number(opt('rounds', '1'))
const CHAIN_STEPS = 20
const STEP_DELAY_MS = 100

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d
function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b)
  if (s.length === 0) return NaN
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]
}
const stats = (v) => ({
  n: v.length,
  median: round(quantile(v, 0.5), 2),
  p95: round(quantile(v, 0.95), 2),
  p99: round(quantile(v, 0.99), 2),
  max: round(Math.max(...v), 2),
})

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const get = (k) => Number(status.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm'))?.[1])
  return { rssMiB: round(get('VmRSS') / 1024), peakMiB: round(get('VmHWM') / 1024) }
}
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {
    // Not Linux, or not allowed: the peak is then since start.
  }
}

/** The loopback server the http steps call: answers /tick/<tag>/<step>?ms=N after N ms. */
async function startTicks() {
  const ended = new Map() // `${tag}/${step}` → performance.now() at the response's end
  const big = JSON.stringify({ text: 'x'.repeat(4_000_000) })
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x')
    if (url.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(big)
      return
    }
    const [, , tag, step] = url.pathname.split('/')
    setTimeout(
      () => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"ok":true}', () => ended.set(`${tag}/${step}`, performance.now()))
      },
      Number(url.searchParams.get('ms') ?? 0),
    )
  })
  server.keepAliveTimeout = 60_000
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  return { base: `http://127.0.0.1:${server.address().port}`, ended, server }
}

/** `steps` chained http steps to the tick server, then `templates` template steps. */
function workflow(base, steps, delayMs, templates = 0) {
  const list = []
  for (let i = 0; i < steps; i++) {
    const prev = i === 0 ? '' : `&prev={{ s${i - 1}.output.status }}`
    list.push({ id: `s${i}`, tool: 'http', inputs: { url: `${base}/tick/{{ inputs.tag }}/s${i}?ms=${delayMs}${prev}` } })
  }
  for (let i = 0; i < templates; i++) {
    const from = i === 0 ? `s${steps - 1}.output.status` : `t${i - 1}.output.text`
    list.push({ id: `t${i}`, tool: 'template', inputs: { text: `{{ ${from} }} ${i}` } })
  }
  const last = list[list.length - 1].id
  return {
    name: `soak ${steps}+${templates}`,
    inputs: { tag: { type: 'string', required: true } },
    steps: list,
    output: `{{ ${last}.output }}`,
  }
}

/** A socket that follows runs: subscribe(runId) resolves with the run's events once finished. */
async function openClient(pg) {
  const ws = new WebSocket(`${pg.url.replace(/^http/, 'ws')}/api/ws`, {
    origin: pg.url,
    headers: authHeaders(pg.token),
  })
  const runs = new Map() // runId → {snapshot, events, resolve, onEvent}
  ws.on('message', (data) => {
    const now = performance.now()
    const msg = JSON.parse(data.toString())
    const run = msg.type === 'snapshot' ? runs.get(msg.run.runId) : msg.type === 'event' ? runs.get(msg.runId) : undefined
    if (!run) return
    if (msg.type === 'snapshot') {
      run.snapshot = msg.run
      if (msg.run.status !== 'running') run.resolve(run)
      return
    }
    run.events.push({ seq: msg.seq, type: msg.event.type, stepId: msg.event.stepId, at: now })
    if (msg.event.type === 'run_finished') run.resolve(run)
  })
  await new Promise((resolve, reject) => {
    ws.once('message', resolve) // hello
    ws.once('error', reject)
  })
  return {
    ws,
    follow(runId) {
      return new Promise((resolve) => {
        runs.set(runId, { runId, snapshot: undefined, events: [], resolve })
        ws.send(JSON.stringify({ type: 'subscribe', runId }))
      }).finally(() => runs.delete(runId))
    },
    close: () => ws.close(),
  }
}

/** Null when the client saw every seq after its snapshot exactly once up to `last`; else why not. */
function gapless(run, last) {
  const from = run.snapshot?.seq ?? 0
  const seqs = run.events.map((e) => e.seq)
  if (run.snapshot?.status !== 'running') return run.snapshot?.seq === last ? null : `finished snapshot at seq ${run.snapshot?.seq}`
  for (let i = 0; i < seqs.length; i++) {
    if (seqs[i] !== from + 1 + i) return `seq ${seqs[i]} where ${from + 1 + i} was due`
  }
  return seqs[seqs.length - 1] === last ? null : `ended at seq ${seqs[seqs.length - 1]}, not ${last}`
}

async function post(pg, body) {
  const res = await fetch(`${pg.url}/api/runs`, {
    method: 'POST',
    headers: { ...authHeaders(pg.token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}

async function phaseConcurrent(pg, ticks) {
  const definition = workflow(ticks.base, CHAIN_STEPS, STEP_DELAY_MS)
  const lastSeq = 1 + 2 * CHAIN_STEPS + 1
  const deadline = performance.now() + SECONDS * 1000
  const out = { runs: 0, refused429: 0, lost: [], latencies: [], maxRunning: 0 }
  let tagN = 0
  // How many ran at once, as the server says: its run list, every 500 ms.
  const sampler = (async () => {
    while (performance.now() < deadline) {
      const res = await fetch(`${pg.url}/api/runs`, { headers: authHeaders(pg.token) })
      const { runs } = await res.json()
      out.maxRunning = Math.max(out.maxRunning, runs.filter((r) => r.status === 'running').length)
      await sleep(500)
    }
  })()
  const worker = async (w) => {
    const clients = [await openClient(pg), await openClient(pg)]
    try {
      while (performance.now() < deadline) {
        const tag = `w${w}r${tagN++}`
        const started = await post(pg, { definition, inputs: { tag } })
        if (started.status === 429) {
          out.refused429++
          await sleep(250)
          continue
        }
        if (started.status !== 201) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`)
        const { runId } = started.body
        const seen = await Promise.all(clients.map((c) => c.follow(runId)))
        out.runs++
        for (const run of seen) {
          const why = gapless(run, lastSeq)
          if (why) out.lost.push(`${runId}: ${why}`)
          for (const e of run.events) {
            const end = e.type === 'step_completed' && ticks.ended.get(`${tag}/${e.stepId}`)
            if (end) out.latencies.push(e.at - end)
          }
        }
      }
    } finally {
      clients.forEach((c) => c.close())
    }
  }
  await Promise.all([sampler, ...Array.from({ length: WORKERS }, (_, w) => worker(w))])
  return out
}

async function phaseSequence(pg, ticks) {
  const definition = workflow(ticks.base, 1, 20, 5)
  const lastSeq = 1 + 2 * 6 + 1
  const client = await openClient(pg)
  const out = { runs: 0, lost: [], seconds: 0 }
  const t0 = performance.now()
  try {
    for (let i = 0; i < SEQUENCE; i++) {
      const started = await post(pg, { definition, inputs: { tag: `seq${i}` } })
      if (started.status !== 201) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`)
      const run = await client.follow(started.body.runId)
      const why = gapless(run, lastSeq)
      if (why) out.lost.push(`${started.body.runId}: ${why}`)
      out.runs++
    }
  } finally {
    client.close()
  }
  out.seconds = round((performance.now() - t0) / 1000)
  return out
}

async function phaseOutputs(pg, ticks) {
  const definition = {
    name: 'soak big output',
    steps: [{ id: 'big', tool: 'http', inputs: { url: `${ticks.base}/big`, responseType: 'text' } }],
    output: '{{ big.output.body }}',
  }
  const started = await post(pg, { definition })
  if (started.status !== 201) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`)
  const client = await openClient(pg)
  const run = await client.follow(started.body.runId)
  client.close()
  if (run.events.at(-1)?.type !== 'run_finished' && run.snapshot?.status !== 'completed') {
    throw new Error('the big-output run did not finish')
  }
  await sleep(500)
  const before = memory(pg.child.pid)
  resetPeak(pg.child.pid)
  const get = () =>
    new Promise((resolve, reject) => {
      const req = http.get(`${pg.url}/api/runs/${started.body.runId}/output`, { headers: authHeaders(pg.token) }, (res) => {
        let n = 0
        res.on('data', (c) => (n += c.length))
        res.on('end', () => resolve({ status: res.statusCode, bytes: n }))
      })
      req.on('error', reject)
    })
  const replies = await Promise.all(Array.from({ length: 10 }, get))
  const after = memory(pg.child.pid)
  return {
    outputMB: round(replies[0].bytes / 1e6, 2),
    statuses: [...new Set(replies.map((r) => r.status))],
    rssBeforeMiB: before.rssMiB,
    peakDuringMiB: after.peakMiB,
    rssAfterMiB: after.rssMiB,
  }
}

async function phaseIdle(pg) {
  const before = memory(pg.child.pid)
  const opened = []
  let refused503 = 0
  let failed = 0
  for (let i = 0; i < IDLE; i++) {
    const result = await new Promise((resolve) => {
      const ws = new WebSocket(`${pg.url.replace(/^http/, 'ws')}/api/ws`, {
        origin: pg.url,
        headers: authHeaders(pg.token),
      })
      ws.once('open', () => resolve({ ws }))
      ws.once('unexpected-response', (_req, res) => {
        res.resume()
        resolve({ status: res.statusCode })
      })
      ws.once('error', () => resolve({}))
    })
    if (result.ws) opened.push(result.ws)
    else if (result.status === 503) refused503++
    else failed++
  }
  await sleep(10_000)
  const held = memory(pg.child.pid)
  for (const ws of opened) ws.close()
  await sleep(3_000)
  return {
    attempted: IDLE,
    opened: opened.length,
    refused503,
    failed,
    before,
    whileHeld: held,
    afterClose: memory(pg.child.pid),
  }
}

/** A first start on `home`, until it has seeded the sample knowledge base. */
async function seed(cwd, home) {
  let seeded
  const done = new Promise((r) => (seeded = r))
  const first = await startPlayground({ cwd, home, onOutput: (t) => /sample knowledge base/.test(t) && seeded() })
  await Promise.race([done, sleep(300_000)])
  await first.stop()
}

async function main() {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'vai-soak-'))
  // The runs call a server in this process on loopback.
  writeFileSync(path.join(cwd, '.vai.json'), JSON.stringify({ allowedHosts: ['127.0.0.1'] }))
  const home = mkdtempSync(path.join(os.tmpdir(), 'vai-soak-home-'))
  await seed(cwd, home)
  const ticks = await startTicks()
  const pg = await startPlayground({ cwd, home, args: serverArgs })
  const pid = pg.child.pid
  const result = { serverArgs, machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => round(l, 2)) } }
  let broken = false
  try {
    await sleep(2000)
    result.start = memory(pid)
    console.log(`start: ${JSON.stringify(result.start)}`)

    result.rounds = []
    for (let r = 0; r < ROUNDS; r++) {
      const round = {}
      result.rounds.push(round)
      console.log(`round ${r + 1} of ${ROUNDS}`)
      if (PHASES.has('concurrent')) {
        resetPeak(pid)
        const c = await phaseConcurrent(pg, ticks)
        round.concurrent = {
          seconds: SECONDS,
          workers: WORKERS,
          clientsPerRun: 2,
          runs: c.runs,
          refused429: c.refused429,
          maxRunningAtOnce: c.maxRunning,
          lost: c.lost.length,
          lostExamples: c.lost.slice(0, 5),
          latencyMs: stats(c.latencies),
          memory: memory(pid),
        }
        console.log(`concurrent: ${JSON.stringify(round.concurrent)}`)
      }

      if (PHASES.has('sequence')) {
        resetPeak(pid)
        const s = await phaseSequence(pg, ticks)
        round.sequence = { ...s, lost: s.lost.length, lostExamples: s.lost.slice(0, 5), memory: memory(pid) }
        console.log(`sequence: ${JSON.stringify(round.sequence)}`)
      }

      if (PHASES.has('outputs')) {
        round.outputs = await phaseOutputs(pg, ticks)
        console.log(`outputs: ${JSON.stringify(round.outputs)}`)
      }

      if (PHASES.has('idle')) {
        resetPeak(pid)
        round.idle = await phaseIdle(pg)
        console.log(`idle: ${JSON.stringify(round.idle)}`)
      }
      round.after = memory(pid)
      console.log(`after round ${r + 1}: ${JSON.stringify(round.after)}`)
    }

    await sleep(5000)
    result.end = memory(pid)
    console.log(`end (5 s after the last phase): ${JSON.stringify(result.end)}`)
    broken = result.rounds.some((r) => (r.concurrent?.lost ?? 0) > 0 || (r.sequence?.lost ?? 0) > 0 || (r.idle?.failed ?? 0) > 0)
  } catch (e) {
    console.error(e)
    console.error(pg.output().slice(-4000))
    broken = true
  } finally {
    await pg.stop()
    ticks.server.closeAllConnections()
    ticks.server.close()
    rmSync(cwd, { recursive: true, force: true })
    rmSync(home, { recursive: true, force: true })
  }
  const dir = path.join(here, '..', 'test-results')
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'bench-soak.json'), JSON.stringify(result, null, 2))
  console.log(`written to e2e/test-results/bench-soak.json`)
  process.exit(broken ? 1 : 0)
}

await main()
