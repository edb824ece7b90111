import { and, count, eq, gt, min } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { accountExports } from '../../db/schema/account-exports.ts';
import { tooManyRequests } from '../../lib/app-error.ts';

// An export reads every table of the person and streams their files: a few per hour is plenty for a
// person and keeps a stolen session (or a script) from turning it into load. Counted in the
// database, so the limit holds across the person's sessions and across instances.

export const EXPORTS_PER_HOUR = 3;
const HOUR_MS = 3600_000;

/**
 * Takes one of the hour's exports or refuses with 429. The row goes in first and the count after,
 * so parallel requests can only be refused too often, never allowed too often; a refused request
 * takes its row back, so a flood does not keep the person locked out.
 */
export async function takeExportSlot(deps: AppDeps, userId: string): Promise<void> {
  const [mine] = await deps.db.insert(accountExports).values({ userId }).returning({ id: accountExports.id });
  const since = new Date(Date.now() - HOUR_MS);
  const [row] = await deps.db
    .select({ n: count(), oldest: min(accountExports.createdAt) })
    .from(accountExports)
    .where(and(eq(accountExports.userId, userId), gt(accountExports.createdAt, since)));
  if ((row?.n ?? 0) <= EXPORTS_PER_HOUR) return;
  await deps.db.delete(accountExports).where(eq(accountExports.id, mine!.id));
  const freeAt = row?.oldest ? new Date(row.oldest).getTime() + HOUR_MS : Date.now() + HOUR_MS;
  const minutes = Math.max(1, Math.ceil((freeAt - Date.now()) / 60_000));
  throw tooManyRequests(
    `You can download your data ${EXPORTS_PER_HOUR} times an hour. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}
