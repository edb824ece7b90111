// `npm start`: build whatever is missing (web app or compiled server), then run the compiled
// server with plain `node` — no TypeScript loader in production (docs/decisions/060-compiled-server.md).
// This process only stands in front of the server: signals are passed on, and it exits when the
// server exits, with the server's code, so a supervisor's SIGTERM to `npm start` stops everything.
import { existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const webIndex = `${process.env.WEB_DIST_DIR ?? 'dist/web'}/index.html`;
const serverMain = `${process.env.SERVER_DIST_DIR ?? 'dist/server'}/main.js`;

const build = (what, cmd, args) => {
  console.log(`Building ${what} (first start)…`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (!existsSync(webIndex)) build('the app', 'npm', ['run', 'build']);
else if (!existsSync(serverMain)) build('the server', process.execPath, ['scripts/build-server.mjs']);

const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...process.execArgv, serverMain, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'];
for (const sig of SIGNALS) {
  process.on(sig, () => {
    if (server.exitCode === null && server.signalCode === null) server.kill(sig);
  });
}
// `npm start` runs this through `sh -c`; package.json's `exec` makes this process npm's direct
// child so npm's forwarded SIGTERM arrives here. Should a shell in between still swallow it, the
// parent's death is the signal: a supervisor stopping `npm start` must never leave the server behind.
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid !== parent) process.emit('SIGTERM', 'SIGTERM');
}, 500);
watch.unref();

server.on('error', (err) => {
  console.error(`Could not start the server: ${err.message}`);
  process.exit(1);
});
server.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, as an exec'd server would; the handlers above must not catch it.
    for (const sig of SIGNALS) process.removeAllListeners(sig);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 0);
  }
});
