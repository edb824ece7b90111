import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
const { token, orderId } = JSON.parse(readFileSync('/tmp/h25p/data.json', 'utf8'));
const db = new PGlite('/tmp/h25p/data2', { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
await db.waitReady;
const hash = createHash('sha256').update(token).digest('hex');
const floor = `select o.public_id, o.state, o.created_at, o.total::float8 as total
  from sessions s join orders o on o.user_id = s.user_id
 where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now() and o.state <> 'awaiting_advance'
 order by o.created_at desc limit 100`;
const [{ user_id }] = (await db.query('select user_id from sessions where token_hash=$1', [hash])).rows;
const [{ id: oid }] = (await db.query('select id from orders where public_id=$1', [orderId])).rows;
const queries = JSON.parse(readFileSync('/tmp/h25p/queries.json', 'utf8'));
async function time(name, text, params, n = 300) {
  for (let i = 0; i < 20; i++) await db.query(text, params);
  const t = performance.now();
  for (let i = 0; i < n; i++) await db.query(text, params);
  console.log(name.padEnd(20), ((performance.now() - t) / n).toFixed(3), 'ms');
}
await time('select 1', 'select 1', []); await time('floor', floor, [hash]);
await time('select 1', 'select 1', []);
for (const q of queries) await time(q.name, q.text, q.params.map((p) => p === '$USER' ? user_id : p === '$ORDER' ? orderId : p === '$OID' ? oid : p));
if (process.env.EXPLAIN) for (const q of queries) console.log((await db.query('explain analyze ' + q.text, q.params.map((p) => p === '$USER' ? user_id : p === '$ORDER' ? orderId : p === '$OID' ? oid : p))).rows.map(r => r['QUERY PLAN']).join('\n'));
await db.close();
