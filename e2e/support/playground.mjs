// Starting the real `vai playground` binary for the e2e specs and the benchmarks: an isolated,
// offline environment (no provider keys, a throw-away home, data and config directory) and the
// URL it prints on stdout. Plain ESM so the Node benchmark scripts can share it.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
export const repoRoot = path.resolve(here, '..', '..')
export const fixturesDir = path.resolve(here, '..', 'fixtures')

/** The Debian package, never a Playwright-downloaded browser (scripts/setup.sh installs it). */
export const chromiumPath = process.env.VAI_CHROMIUM ?? '/usr/bin/chromium'

/** Root needs --no-sandbox; the rest keep Chromium from dialling out. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** The binary under test: $VAI_BIN, else the release build. */
export function vaiBinary() {
  const bin = process.env.VAI_BIN ?? path.join(repoRoot, 'target', 'release', 'vai')
  if (!existsSync(bin)) {
    throw new Error(
      `${bin} does not exist: build it first with \`cargo build --release --locked -p vai\` ` + '(after `npm run build:web`), or point VAI_BIN at a vai binary',
    )
  }
  return bin
}

// Every setting vai reads from the environment (server/cli/src/config/mod.rs KEYS) plus the
// provider keys other tools use. None may leak from the developer's shell into a test run.
const PROVIDER_ENV = [
  'VOYAGE_API_KEY',
  'VOYAGE_API_BASE',
  'MONGODB_URI',
  'VAI_LLM_PROVIDER',
  'VAI_LLM_API_KEY',
  'VAI_LLM_MODEL',
  'VAI_LLM_BASE_URL',
  'VAI_DEFAULT_DB',
  'VAI_DEFAULT_COLLECTION',
  'VAI_DEFAULT_MODEL',
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'OLLAMA_HOST',
]

/**
 * Where scripts/fetch-model.sh put the local embedding model, resolved from the *real*
 * environment (the isolated one has a different HOME), mirroring
 * server/providers/src/local/embed/locate.rs.
 */
export function modelDir(env = process.env) {
  if (env.VAI_MODEL_DIR) return env.VAI_MODEL_DIR
  const cache = env.VAI_CACHE_DIR || (env.XDG_CACHE_HOME ? path.join(env.XDG_CACHE_HOME, 'vai') : undefined) || path.join(env.HOME ?? '.', '.cache', 'vai')
  return path.join(cache, 'models', 'all-minilm-l6-v2')
}

/**
 * Where scripts/fetch-model.sh put the local LLM (SmolLM2-135M-Instruct's GGUF), resolved from the
 * real environment, mirroring server/providers/src/local/llm/locate.rs.
 */
export function llmDir(env = process.env) {
  if (env.VAI_LOCAL_LLM_DIR) return env.VAI_LOCAL_LLM_DIR
  const cache = env.VAI_CACHE_DIR || (env.XDG_CACHE_HOME ? path.join(env.XDG_CACHE_HOME, 'vai') : undefined) || path.join(env.HOME ?? '.', '.cache', 'vai')
  return path.join(cache, 'models', 'smollm2-135m-instruct')
}

/**
 * An environment on the offline default: local embedding model, throw-away home, no keys. No
 * LLM unless `llm` (then the local one, from where the fetch script put it): the specs that
 * show a `generate` step failing for want of an LLM rely on there being none.
 */
export function isolatedEnv(home, { llm = false } = {}) {
  const env = { ...process.env }
  for (const name of PROVIDER_ENV) delete env[name]
  for (const name of ['VAI_CACHE_DIR', 'XDG_CACHE_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'VAI_LOCAL_LLM_DIR']) {
    delete env[name]
  }
  return {
    ...env,
    HOME: home,
    VAI_DATA_DIR: path.join(home, 'data'),
    VAI_CONFIG_PATH: path.join(home, '.vai', 'config.json'),
    VAI_MODEL_DIR: modelDir(process.env),
    ...(llm ? { VAI_LOCAL_LLM_DIR: llmDir(process.env) } : {}),
    NO_COLOR: '1',
  }
}

/**
 * Get a browser context in as a person does: open the URL the playground printed, which trades
 * its token for the cookie and redirects to the page without it. Returns the page's final URL.
 */
export async function signIn(context, printedUrl) {
  const page = await context.newPage()
  try {
    await page.goto(printedUrl)
    return page.url()
  } finally {
    await page.close()
  }
}

/** Request headers that carry the playground's access token, for scripts (docs/api.md). */
export function authHeaders(token) {
  return { authorization: `Bearer ${token}` }
}

/**
 * Start `vai playground --port 0 --no-open [args]` in `cwd` and resolve once it has printed
 * `vai playground: <url>`. Returns {url, token, printedUrl, child, home, output(), stop()}:
 * `url` is the origin (no trailing slash) and `token` the access token the printed URL
 * carries; a browser gets in by visiting `printedUrl`, a script sends `authHeaders(token)`.
 * Without `home` a fresh temporary one is made, and removed by stop(). With `llm` it answers
 * with the local LLM (see isolatedEnv).
 *
 * @param {{ cwd?: string, args?: string[], timeoutMs?: number, onOutput?: (text: string) => void, home?: string, llm?: boolean }} [options]
 */
export async function startPlayground({ cwd = fixturesDir, args = [], timeoutMs = 60_000, onOutput, home: givenHome, llm = false } = {}) {
  const bin = vaiBinary()
  // A given home (one whose local store is already seeded, say) is the caller's to remove.
  const home = givenHome ?? mkdtempSync(path.join(tmpdir(), 'vai-e2e-'))
  const started = performance.now()
  const child = spawn(bin, ['playground', '--port', '0', '--no-open', ...args], {
    cwd,
    env: isolatedEnv(home, { llm }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  const record = (chunk) => {
    const text = chunk.toString()
    log += text
    onOutput?.(text)
  }
  child.stderr.on('data', record)

  const printedUrl = await new Promise((resolve, reject) => {
    let buffered = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`vai playground printed no URL within ${timeoutMs} ms; output:\n${log}`))
    }, timeoutMs)
    child.stdout.on('data', (chunk) => {
      record(chunk)
      buffered += chunk.toString()
      const match = buffered.match(/vai playground: (http:\/\/\S+)/)
      if (match) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`vai playground exited (${signal ?? code}) before printing its URL:\n${log}`))
    })
    child.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
  })

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    }
    if (!givenHome) rmSync(home, { recursive: true, force: true })
  }

  const printed = new URL(printedUrl)
  const token = printed.searchParams.get('token')
  if (!token) throw new Error(`the printed URL carries no access token: ${printedUrl}`)
  const url = printed.origin
  return { url, token, printedUrl, child, home, startedAt: started, output: () => log, stop }
}
