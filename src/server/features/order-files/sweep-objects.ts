import { and, inArray, lt, lte } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { orderFiles, storedObjectSweepMarks } from '../../db/schema/order-files.ts';
import { TEMP_PREFIX } from './upload-file.ts';
import { guardRow, PARKED, parkedKeys } from '../../lib/pass-rows.ts';

// Stored objects that no row names (docs/decisions/231-stored-object-sweep.md): an upload whose
// transaction aborted after the move, a crash between a row's deletion and its bytes', a cascade
// that removed rows only. Nothing serves them; this sweep, a step of the jobs runner, deletes them.

/** How long a key stays unnamed before its object is deleted: far longer than any upload takes. */
export const SWEEP_GRACE_MS = 24 * 3600_000;
/** The order files' own prefixes; nothing else in the storage is touched. */
const PREFIXES = ['orders/', TEMP_PREFIX];
const BATCH = 500;

/** One pass; `now` is the clock tests move. Returns how many objects it deleted. */
export async function sweepStoredObjects(deps: AppDeps, now: Date = new Date()): Promise<number> {
  let deleted = 0;
  for (const prefix of PREFIXES) {
    let batch: string[] = [];
    for await (const key of deps.fileStorage.list(prefix)) {
      batch.push(key);
      if (batch.length === BATCH) {
        deleted += await sweepBatch(deps, batch, now);
        batch = [];
      }
    }
    if (batch.length) deleted += await sweepBatch(deps, batch, now);
  }
  // Marks of keys this pass no longer saw unnamed (named since, or gone) are dropped.
  await deps.db.delete(storedObjectSweepMarks).where(lt(storedObjectSweepMarks.lastSeenAt, now));
  return deleted;
}

async function sweepBatch(deps: AppDeps, keys: string[], now: Date): Promise<number> {
  const named = new Set(
    (await deps.db.select({ key: orderFiles.storageKey }).from(orderFiles).where(inArray(orderFiles.storageKey, keys))).map((r) => r.key),
  );
  const unnamed = keys.filter((k) => !named.has(k));
  if (!unnamed.length) return 0;
  await deps.db
    .insert(storedObjectSweepMarks)
    .values(unnamed.map((storageKey) => ({ storageKey, firstSeenAt: now, lastSeenAt: now })))
    .onConflictDoUpdate({ target: storedObjectSweepMarks.storageKey, set: { lastSeenAt: now } });
  const due = await deps.db
    .select({ key: storedObjectSweepMarks.storageKey })
    .from(storedObjectSweepMarks)
    .where(
      and(
        inArray(storedObjectSweepMarks.storageKey, unnamed),
        lte(storedObjectSweepMarks.firstSeenAt, new Date(now.getTime() - SWEEP_GRACE_MS)),
      ),
    );
  let deleted = 0;
  // A key whose deletion keeps failing is parked with a backoff, then `failed` (lib/pass-rows.ts).
  const parked = await parkedKeys(
    deps,
    'object-sweep',
    due.map((d) => d.key),
    now,
  );
  for (const { key } of due) {
    if (parked.has(key)) continue;
    // Named again meanwhile (a row committed since the batch was read): kept.
    const [row] = await deps.db
      .select({ key: orderFiles.storageKey })
      .from(orderFiles)
      .where(inArray(orderFiles.storageKey, [key]))
      .limit(1);
    if (row) continue;
    const outcome = await guardRow(deps, 'object-sweep', now, async (claim) => {
      claim(key);
      await deps.fileStorage.delete(key);
      await deps.db.delete(storedObjectSweepMarks).where(inArray(storedObjectSweepMarks.storageKey, [key]));
    });
    if (outcome !== PARKED) deleted++;
  }
  if (deleted) deps.log.info({ deleted }, 'stored-object sweep: objects no row names deleted');
  return deleted;
}
