// `npm start`: build the web app if it is missing, then serve everything on one port.
import { existsSync } from 'node:fs';
import { spawnSync, spawn } from 'node:child_process';

if (!existsSync(`${process.env.WEB_DIST_DIR ?? 'dist/web'}/index.html`)) {
  console.log('Building the web app (first start)…');
  const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
