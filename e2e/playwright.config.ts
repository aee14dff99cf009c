// Playwright drives the real `vai playground` binary ($VAI_BIN: npm test passes the debug build
// its Rust tests made; else the release build) in Debian's Chromium; the global
// setup starts it on a free port with an isolated, offline environment (see support/).
import { availableParallelism, tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumPath } from './support/playground.mjs'

const ci = !!process.env.CI

// The browser state the global setup saves after opening the printed URL (its cookie carries
// the access token). Set once in the main process; the workers inherit it.
process.env.VAI_E2E_STATE ??= path.join(tmpdir(), `vai-e2e-state-${process.pid}.json`)

export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  // One worker per core, all against the one server: with a single worker, the browser and
  // the server leave a core idle while the other waits (386 s → 294 s on two cores). Spec files
  // run side by side; the tests of one file run in order.
  workers: availableParallelism(),
  fullyParallel: false,
  // One retry: a spec that fails once and then passes is reported "flaky" (scripts/test.sh names
  // it in its summary) instead of failing a run on a loaded two-core machine; a real failure fails
  // both attempts.
  retries: 1,
  forbidOnly: ci,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  globalSetup: './support/global-setup.ts',
  reporter: [['list'], ['html', { outputFolder: './playwright-report', open: 'never' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 15_000,
    storageState: process.env.VAI_E2E_STATE,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
})
