import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AppDeps } from '../deps.ts';
import { passRowFailures } from '../db/schema/jobs.ts';
import { recordAudit } from './audit-log.ts';

// The rows of the scheduled passes (docs/decisions/339-isolated-job-passes.md). Each pass claims its
// own rows (a reminder, a notice group, a resolved request, ...) with SKIP LOCKED, one transaction
// per row. A row whose work throws is parked in pass_row_failures: its transaction rolled back, it
// waits a growing backoff before its next try (the claim queries skip it meanwhile, so the rows
// behind it go on), and after PASS_ROW_MAX_ATTEMPTS tries it stays `failed` until the owner retries
// it from the overview. The clock is the pass's `now`, so tests move it as they move the passes.

export const PASS_ROW_MAX_ATTEMPTS = 5;

/** The scheduled passes whose rows are parked; the names are stored (pass_row_failures.pass). */
export const ROW_PASSES = [
  'reminders',
  'checkout-follow-ups',
  'notices',
  'support-closing',
  'support-overdue',
  'plan-offers',
  'retention-purge',
  'object-sweep',
] as const;
export type RowPass = (typeof ROW_PASSES)[number];

/** Seconds before the next try after `attempts` failures: 1 min, 5 min, 25 min, then two hours at most (the SQL below agrees). */
export const passRowBackoffSeconds = (attempts: number) => Math.min(7200, 60 * 5 ** (attempts - 1));

/** For a pass's claim query: the row keyed `key` is not parked (waiting for its next try, or failed). */
export function notParked(pass: RowPass, key: SQL | AnyPgColumn, now: Date): SQL {
  return sql`not exists (select 1 from pass_row_failures prf where prf.pass = ${pass} and prf.row_key = (${key})::text
    and (prf.state = 'failed' or prf.retry_at > ${now.toISOString()}::timestamptz))`;
}

/** The keys among `keys` that are parked at `now` (for passes that list their rows outside SQL). */
export async function parkedKeys(deps: Pick<AppDeps, 'database'>, pass: RowPass, keys: string[], now: Date): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await deps.database.query<{ row_key: string }>(
    `select row_key from pass_row_failures where pass = $1 and row_key = any($2::text[]) and (state = 'failed' or retry_at > $3::timestamptz)`,
    [pass, keys, now.toISOString()],
  );
  return new Set(rows.map((r) => r.row_key));
}

export const PARKED = Symbol('parked');

/** What went wrong, in the database's words when a query failed (the driver's cause, not the query's text and values). */
export function errorText(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Runs one row's work. `work` names the row it claimed with `claim(key)` before it can fail on it;
 * a throw after that parks the row and answers PARKED (the pass goes on with the next row). A throw
 * before any claim is the pass's own failure and goes up to its boundary (run-jobs.ts).
 */
export async function guardRow<T>(
  deps: Pick<AppDeps, 'database' | 'log'>,
  pass: RowPass,
  now: Date,
  work: (claim: (key: string) => void) => Promise<T>,
): Promise<T | typeof PARKED> {
  let key: string | null = null;
  try {
    const value = await work((k) => {
      key = k;
    });
    if (key !== null) await deps.database.query(`delete from pass_row_failures where pass = $1 and row_key = $2`, [pass, key]);
    return value;
  } catch (err) {
    if (key === null) throw err;
    await parkRow(deps, pass, key, now, err);
    return PARKED;
  }
}

async function parkRow(deps: Pick<AppDeps, 'database' | 'log'>, pass: RowPass, key: string, now: Date, err: unknown) {
  const message = errorText(err).slice(0, 500);
  const [row] = await deps.database.query<{ attempts: number; state: string }>(
    `insert into pass_row_failures (pass, row_key, attempts, state, retry_at, last_error, updated_at)
          values ($1, $2, 1, 'retrying', $3::timestamptz + make_interval(secs => $4), $5, now())
     on conflict (pass, row_key) do update
        set attempts = pass_row_failures.attempts + 1,
            state = case when pass_row_failures.attempts + 1 >= $6 then 'failed' else 'retrying' end,
            retry_at = $3::timestamptz + make_interval(secs => least($7, 60 * power(5, pass_row_failures.attempts))::int),
            last_error = excluded.last_error, updated_at = now()
     returning attempts, state`,
    [pass, key, now.toISOString(), passRowBackoffSeconds(1), message, PASS_ROW_MAX_ATTEMPTS, passRowBackoffSeconds(99)],
  );
  deps.log.warn(
    { pass, rowKey: key, attempts: row?.attempts },
    `${pass}: a row failed${row?.state === 'failed' ? ' for the last time' : ''}: ${message}`,
  );
}

/** The parked rows that gave up, for the overview (newest first). */
export async function failedPassRows(deps: Pick<AppDeps, 'database'>, limit = 20) {
  const rows = await deps.database.query<{
    id: string;
    pass: string;
    row_key: string;
    attempts: number;
    last_error: string | null;
    updated_at: Date | string;
  }>(
    `select id, pass, row_key, attempts, last_error, updated_at from pass_row_failures where state = 'failed' order by updated_at desc limit $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    pass: r.pass,
    rowKey: r.row_key,
    attempts: Number(r.attempts),
    lastError: r.last_error,
    failedAt: new Date(r.updated_at).toISOString(),
  }));
}

/**
 * The owner's retry: the row is tried again on the next pass, with its attempts counted afresh.
 * Audited in the same transaction (who retried what, and its last error).
 */
export async function retryPassRow(deps: Pick<AppDeps, 'db'>, actorUserId: string, id: string): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passRowFailures)
      .where(and(eq(passRowFailures.id, id), eq(passRowFailures.state, 'failed')))
      .returning();
    if (!row) return false;
    await recordAudit(tx, {
      actorUserId,
      action: 'pass-row.retry',
      entity: 'pass_row',
      entityId: row.id,
      before: { pass: row.pass, rowKey: row.rowKey, attempts: row.attempts, lastError: row.lastError },
      after: null,
    });
    return true;
  });
}
