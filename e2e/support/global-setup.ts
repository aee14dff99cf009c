// Starts what every spec needs and hands it over through the environment (Playwright passes
// process.env set here on to the test workers): the `vai playground` release binary on a free
// loopback port, started in e2e/fixtures so the fixture files are listed as `file:` workflows,
// and the slow loopback server the cancel spec points its http step at.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';
import { startPlayground } from './playground.mjs';
import { startSlowServer } from './slow-server.mjs';

export default async function globalSetup(config: FullConfig) {
  const slow = await startSlowServer({ delayMs: 20_000 });
  const playground = await startPlayground();
  process.env.VAI_PLAYGROUND_URL = playground.url;
  process.env.VAI_E2E_SLOW_URL = slow.url;
  console.log(`vai playground under test: ${playground.url} (slow server ${slow.url})`);

  return async () => {
    await playground.stop();
    await slow.close();
    // The server's own log, for a failed run's post-mortem.
    const outputDir = config.projects[0]?.outputDir ??
      fileURLToPath(new URL('../test-results', import.meta.url));
    mkdirSync(outputDir, { recursive: true });
    writeFileSync(path.join(outputDir, 'playground-server.log'), playground.output());
  };
}
