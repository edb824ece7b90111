// `npm run bench`: runs the benchmark scripts one after the other; each prints its table with the
// targets beside the figures and writes bench/results/. One line per script (helpers add theirs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SCRIPTS = [
  'api.ts', // server throughput ratios (issue 11.1)
  'startup.ts', // start-up time and memory (issue 10.2)
  'lighthouse.ts', // public pages (issue 11.2)
  'chat-load.ts', // chat at 1,000 sockets (issue 11.3)
];

for (const s of SCRIPTS.filter((f) => existsSync(`bench/${f}`))) {
  console.log(`\n▶ bench/${s}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${s}`], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
