import { and, eq, inArray } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { orderFiles } from '../../db/schema/order-files.ts';
import { orderIdsOf } from '../../lib/orders-of-user.ts';
import { fileInUse } from './file-in-use.ts';

// A deleted person's own uploads go with the account (docs/decisions/275-account-deletion-up-front.md):
// the bytes and the name and metadata of every file the customer uploaded to their orders. A file
// that is part of an approval record (a design round the customer approved) keeps its row and its
// sha-256 only, so the record still proves which bytes were approved; a file another row still
// points to (a message's or a support request's attachment) keeps an empty row.

/** The job that deletes the erased files' bytes from the storage (retried by the job pass). */
export const ERASE_FILE_BYTES = 'order-files.erase-bytes';
/** Where an erased row points: no object is ever stored there, so reading it is a 404. */
export const ERASED_KEY_PREFIX = 'erased/';
export const ERASED_FILE_NAME = 'Erased file';

async function eraseCustomerFiles(deps: AppDeps, tx: Tx, userId: string) {
  const files = await tx
    .select({ id: orderFiles.id, storageKey: orderFiles.storageKey })
    .from(orderFiles)
    .where(and(inArray(orderFiles.orderId, orderIdsOf(userId)), eq(orderFiles.uploadedBy, 'customer')));
  const live = files.filter((f) => !f.storageKey.startsWith(ERASED_KEY_PREFIX));
  if (!live.length) return;
  for (const f of live) {
    const approved = (await Promise.all(deps.queries.fileApproved.map((check) => check(tx, f.id)))).some(Boolean);
    if (!approved && !(await fileInUse(deps.queries.fileInUse, tx, f.id))) {
      await tx.delete(orderFiles).where(eq(orderFiles.id, f.id));
      continue;
    }
    await tx
      .update(orderFiles)
      .set({
        name: ERASED_FILE_NAME,
        size: 0,
        contentType: 'application/octet-stream',
        storageKey: `${ERASED_KEY_PREFIX}${f.id}`,
        uploaderUserId: null,
        ...(approved ? {} : { sha256: '' }),
      })
      .where(eq(orderFiles.id, f.id));
  }
  // The bytes after the commit, by a stored job: a crash loses nothing (and the stored-object sweep
  // would delete them anyway once no row names their key).
  await deps.jobs.enqueue(tx, ERASE_FILE_BYTES, { keys: live.map((f) => f.storageKey) });
}

export function subscribeOrderFiles(deps: AppDeps) {
  deps.jobs.handle(ERASE_FILE_BYTES, async (payload) => {
    const keys = (payload as { keys?: unknown }).keys;
    if (!Array.isArray(keys)) return;
    for (const key of keys) if (typeof key === 'string') await deps.fileStorage.delete(key);
  });
  deps.events.inTransaction('account.deleted', async (e, tx) => eraseCustomerFiles(deps, tx, e.userId));
}
