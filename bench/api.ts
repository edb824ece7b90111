// API throughput relative to a bare node:http server in the same run (DESIGN §8). Ratios, not
// absolute numbers, so results compare across machines. Loopback only; bounded duration.
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;

async function measure(url: string) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  return { reqPerSec: Math.round(r.requests.average), p99Ms: r.latency.p99, errors: r.errors + r.non2xx };
}

const bare = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"status":"ok"}');
});
await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
const barePort = (bare.address() as { port: number }).port;

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }, { dataDir: 'memory', webDistDir: '/nonexistent' });
const { app } = await buildApp(config, { pollMail: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const appPort = (app.server.address() as { port: number }).port;

const paths = (process.env.BENCH_PATHS ?? '/api/v1/health').split(',');
const baseline = await measure(`http://127.0.0.1:${barePort}/`);
const results: Record<string, unknown> = { baseline };
for (const p of paths) {
  const m = await measure(`http://127.0.0.1:${appPort}${p}`);
  results[p] = { ...m, ratioToBare: Number((m.reqPerSec / baseline.reqPerSec).toFixed(3)) };
}
await app.close();
bare.close();

const out = { date: new Date().toISOString(), durationSeconds: DURATION, connections: CONNECTIONS, results };
console.log(JSON.stringify(out, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/api.json', `${JSON.stringify(out, null, 2)}\n`);
