// The floor for signed-in reads (bench/signed-in.ts): a bare node:http server that does what every
// signed-in read must do at least, itself — the bearer token's SHA-256, then ONE indexed select on
// the same database as the app (the session by its unique token hash joined to the user's orders by
// orders_user_idx) — and answers the rows as JSON. No framework, no validation, no cache.
// argv: port, then `postgres <url>` (pg pool of 20, as the app) or `pglite <data dir>`; a named
// statement on both.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

const [port, kind, where] = process.argv.slice(2);
const SQL = `select o.public_id, o.state, o.created_at, o.total::float8 as total
  from sessions s join orders o on o.user_id = s.user_id
 where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now() and o.state <> 'awaiting_advance'
 order by o.created_at desc limit 100`;

let query;
if (kind === 'postgres') {
  const pg = (await import('pg')).default;
  const pool = new pg.Pool({ connectionString: where, max: 20 });
  query = async (hash) => (await pool.query({ name: 'floor', text: SQL, values: [hash] })).rows;
} else {
  const { PGlite, parse, protocol } = await import('@electric-sql/pglite');
  const db = new PGlite(where, { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
  await db.waitReady;
  // A named statement, as on PostgreSQL and as the app's reads (src/server/db/client.ts,
  // docs/decisions/291-signed-in-reads-one-statement.md): parsed once, then bound and executed.
  const { serialize } = protocol;
  const exec = async (m) => (await db.execProtocol(m, { syncToFs: false })).messages;
  await db._runExclusiveQuery(async () => {
    try {
      await exec(serialize.parse({ name: 'floor', text: SQL }));
    } finally {
      await exec(serialize.sync());
    }
  });
  query = (hash) =>
    db._runExclusiveQuery(async () => {
      const messages = [];
      try {
        messages.push(
          ...(await exec(serialize.bind({ statement: 'floor', values: [hash] }))),
          ...(await exec(serialize.describe({ type: 'P' }))),
          ...(await exec(serialize.execute({}))),
        );
      } finally {
        messages.push(...(await exec(serialize.sync())));
      }
      return parse.parseResults(messages, db.parsers)[0].rows;
    });
}

createServer(async (req, res) => {
  const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  const rows = await query(createHash('sha256').update(token).digest('hex'));
  res.writeHead(rows.length ? 200 : 401, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ success: true, orders: rows }));
}).listen(Number(port), '127.0.0.1');
