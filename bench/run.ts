// `npm run bench`: runs every benchmark script in bench/ one after the other.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const scripts = readdirSync('bench').filter((f) => f.endsWith('.ts') && f !== 'run.ts').sort();
for (const s of scripts) {
  console.log(`\n▶ bench/${s}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${s}`], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
