import { PGlite } from '@electric-sql/pglite';
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { seedDeliveredOrder } from '../tests/fixtures/delivered-orders.ts';
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_STEP_UP: 'off' } as never, { dataDir: 'memory', webDistDir: '/nonexistent' });
const database = await openDatabase({ dataDir: 'memory' });
const built = await buildApp(config, { database, pollMail: false });
const { customer, orderId } = await seedDeliveredOrder(built, 'cap@example.com');
const [{ id: userId }] = await database.query<{ id: string }>(`select id from users where email='cap@example.com'`);
const [{ id: orderUuid }] = await database.query<{ id: string }>(`select id from orders where public_id=$1`, [orderId]);
let log: { name: string; text: string; params: unknown[] }[] = [];
const orig = PGlite.prototype.query;
(PGlite.prototype as any).query = function (this: any, text: string, params?: unknown[], ...rest: any[]) {
  log.push({ name: '', text, params: (params ?? []).map((p) => (p === userId ? '$USER' : p === orderId ? '$ORDER' : p === orderUuid ? '$OID' : p instanceof Date ? p.toISOString() : p)) });
  return (orig as any).call(this, text, params, ...rest);
};
const paths: [string, string][] = [['list', '/api/v1/order/getAllOrders/user'], ['status', `/api/v1/status/getStatus/order/${orderId}`], ['brief', `/api/v1/orders/${orderId}/brief`], ['files', `/api/v1/orders/${orderId}/files`], ['reviews', `/api/v1/orders/${orderId}/reviews`], ['messages', `/api/v1/orders/${orderId}/messages`], ['support', `/api/v1/orders/${orderId}/support`]];
for (const [, p] of paths) await built.app.inject({ url: p, headers: { authorization: `Bearer ${customer.token}` } });
const all: typeof log = [];
for (const [name, p] of paths) {
  log = [];
  await built.app.inject({ url: p, headers: { authorization: `Bearer ${customer.token}` } });
  log.forEach((l, i) => all.push({ ...l, name: `${name}#${i}` }));
}
writeFileSync('/tmp/h25p/queries.json', JSON.stringify(all, null, 1));
(PGlite.prototype as any).query = orig;
await built.app.close(); await database.close();
