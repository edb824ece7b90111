import pg from 'pg';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { seedDeliveredOrder } from '../tests/fixtures/delivered-orders.ts';
const base = 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `h25p_count_${Date.now()}`;
const admin = new pg.Client({ connectionString: base }); await admin.connect(); await admin.query(`create database ${name}`); await admin.end();
const url = base.replace(/\/postgres$/, `/${name}`);
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_STEP_UP: 'off', DATABASE_URL: url }, { dataDir: 'memory', webDistDir: '/nonexistent' });
const database = await openDatabase({ databaseUrl: url, dataDir: 'memory' });
const built = await buildApp(config, { database, pollMail: false });
const { customer, orderId } = await seedDeliveredOrder(built, 'count@example.com');
let log: string[] = [];
const orig = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (this: any, ...args: any[]) {
  const q = args[0]; log.push(typeof q === 'string' ? q : (q?.name ? `[${q.name}] ` : '') + (q?.text ?? JSON.stringify(q)));
  return (orig as any).apply(this, args);
};
const paths = ['/api/v1/order/getAllOrders/user', `/api/v1/status/getStatus/order/${orderId}`, `/api/v1/orders/${orderId}/brief`, `/api/v1/orders/${orderId}/files`, `/api/v1/orders/${orderId}/reviews`, `/api/v1/orders/${orderId}/messages`, `/api/v1/orders/${orderId}/support`];
for (const p of paths) await built.app.inject({ url: p, headers: { authorization: `Bearer ${customer.token}` } });
for (const p of paths) {
  log = [];
  const r = await built.app.inject({ url: p, headers: { authorization: `Bearer ${customer.token}` } });
  await new Promise((r) => setTimeout(r, 50));
  console.log(`\n### ${p} ${r.statusCode} ${log.length} statements`);
  if (process.env.SHOW) for (const l of log) console.log('  -', l.replace(/\s+/g, ' ').slice(0, Number(process.env.SHOW)));
  if (process.env.BODY) console.log(r.body.slice(0, 3000));
}
(pg.Client.prototype as any).query = orig;
await built.app.close(); await database.close();
const c = new pg.Client({ connectionString: base }); await c.connect(); await c.query(`drop database ${name} with (force)`); await c.end();
