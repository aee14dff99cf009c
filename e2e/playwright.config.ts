// Playwright drives the real `vai playground` release binary in Debian's Chromium; the global
// setup starts it on a free port with an isolated, offline environment (see support/).
import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './support/playground.mjs';

const ci = !!process.env.CI;

export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  // Two cores, one server, one browser: parallel workers only fight over the CPU.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: ci,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  globalSetup: './support/global-setup.ts',
  reporter: [
    ['list'],
    ['html', { outputFolder: './playwright-report', open: 'never' }],
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
});
