// The production web build served by the real app on loopback, for the browser benchmarks
// (lighthouse.ts, page-js.ts): a fresh data directory (the seeded promotion featured), no outside
// look-ups (the footer and the currency fall back at once).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';

/** Chromium's flags on these machines (playwright.config.ts). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function serveBuild(dist: string, port: number) {
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig(
    {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      PUBLIC_URL: origin,
      WEB_DIST_DIR: dist,
      GEOIP_URL: 'http://127.0.0.1:9/json',
      GEO_TIMEOUT_MS: '100',
    },
    { dataDir: mkdtempSync(join(tmpdir(), 'bench-web-data-')) },
  );
  const { app } = await buildApp(config, { pollMail: false });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, origin };
}
