// CPU time per request of the app server and the floor (load-insensitive): /proc/<pid>/stat utime+stime.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, cpSync } from 'node:fs';
import autocannon from 'autocannon';
const { token, orderId } = JSON.parse(readFileSync('/tmp/h25p/data.json', 'utf8'));
const ticks = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const wait = async (url) => { for (let i = 0; i < 240; i++) { try { const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } }); if (r.status < 500) return; } catch {} await new Promise((r) => setTimeout(r, 500)); } throw new Error('no start ' + url); };
rmSync('/tmp/h25p/data3', { recursive: true, force: true }); cpSync('/tmp/h25p/data', '/tmp/h25p/data3', { recursive: true });
const app = spawn(process.execPath, ['dist/server/main.js'], { env: { ...process.env, DATA_DIR: '/tmp/h25p/data', WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'error', NODE_ENV: 'test', ADMIN_STEP_UP: 'off', PORT: '6011', HOST: '127.0.0.1' }, stdio: 'inherit' });
const floor = spawn(process.execPath, ['bench/floor-server.mjs', '6012', 'pglite', '/tmp/h25p/data3'], { stdio: 'inherit' });
await wait('http://127.0.0.1:6011/api/v1/health'); await wait('http://127.0.0.1:6012/');
const N = Number(process.env.N ?? 1500);
async function cpu(name, pid, url) {
  await autocannon({ url, connections: 10, amount: 200, headers: { authorization: `Bearer ${token}` } });
  const t0 = ticks(pid);
  const r = await autocannon({ url, connections: 10, amount: N, headers: { authorization: `Bearer ${token}` } });
  const ms = (ticks(pid) - t0) / N;
  console.log(name.padEnd(14), ms.toFixed(3), 'ms CPU/request', r.non2xx ? `non2xx ${r.non2xx}` : '');
  return ms;
}
const paths = [['list', '/api/v1/order/getAllOrders/user'], ['status', `/api/v1/status/getStatus/order/${orderId}`], ['brief', `/api/v1/orders/${orderId}/brief`], ['files', `/api/v1/orders/${orderId}/files`], ['reviews', `/api/v1/orders/${orderId}/reviews`], ['messages', `/api/v1/orders/${orderId}/messages`], ['support', `/api/v1/orders/${orderId}/support`]];
const f = await cpu('floor', floor.pid, 'http://127.0.0.1:6012/');
for (const [n, p] of paths.filter(([n]) => !process.env.ONLY || process.env.ONLY.split(',').includes(n))) { const a = await cpu(n, app.pid, `http://127.0.0.1:6011${p}`); console.log('   cpu ratio floor/app', (f / a).toFixed(2)); }
await cpu('floor', floor.pid, 'http://127.0.0.1:6012/');
app.kill('SIGINT'); floor.kill('SIGKILL');
