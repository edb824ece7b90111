import type pg from 'pg';
import { createBatchQueue } from './batch-queue.ts';

/**
 * PostgreSQL NOTIFY, batched (decision 110). Every transaction that notifies takes
 * one lock for the whole cluster at commit and holds it until its commit record is flushed; under
 * chat load (500 messages/s, each broadcast published by the socket.io adapter) the profile showed
 * the pool's connections queued on that lock (`Lock:object` on `pg_notify`) behind each other's
 * WAL flushes, and the chat's own inserts queued behind them for a connection.
 *
 * So the notifications go out batched (batch-queue.ts: one statement in flight, in order), and
 * that transaction does not wait for its WAL flush (`synchronous_commit = off`, for it alone): a
 * notification is never stored, so there is nothing a crash could lose that waiting would have
 * kept. Listeners see the same notifications in the same order.
 */
export function createNotifyBatcher(pool: Pick<pg.Pool, 'query'>) {
  const queue = createBatchQueue<{ channel: string; payload: string }, void>(
    async (batch) => {
      await pool.query(
        `select set_config('synchronous_commit', 'off', true), pg_notify(n.channel, n.payload)
           from unnest($1::text[], $2::text[]) with ordinality as n(channel, payload, ord) order by n.ord`,
        [batch.map((p) => p.channel), batch.map((p) => p.payload)],
      );
      return batch.map(() => undefined);
    },
    { maxBatch: 500 },
  );
  return { notify: (channel: string, payload: string) => queue.push({ channel, payload }) };
}
