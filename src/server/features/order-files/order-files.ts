import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import type { OrderFile, OrderFileType } from '../../../contract/order-files.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/orders.ts';
import { orderFileReads, orderFiles } from '../../db/schema/order-files.ts';
import { ERASED_KEY_PREFIX } from './subscriptions.ts';
import { AppError, badRequest, forbidden, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { ObjectMissingError } from '../../integrations/storage/file-storage.ts';
import { fileInUse } from './file-in-use.ts';

/** Who is asking: the order's customer, or someone of the agency (an admin). */
export type Viewer = { side: 'customer' | 'agency'; userId: string };

export interface OrderRef {
  id: string;
  publicId: string;
}

const ORDER_NOT_FOUND = 'Order not found.';
const FILE_NOT_FOUND = 'File not found.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The order a viewer may work with: a customer only their own, and nobody a bare checkout draft
 * (the advance unpaid: decisions 140 and 142 rely on a draft having no files, as the draft clean-up
 * and an account deletion remove drafts without touching the file storage). Anything else is the
 * same 404 as an order that does not exist, so nobody learns which order ids are real.
 */
export async function orderFor(deps: AppDeps, publicId: string, viewer: Viewer): Promise<OrderRef> {
  const [order] = await deps.db
    .select({ id: orders.id, publicId: orders.publicId, userId: orders.userId, state: orders.state })
    .from(orders)
    .where(eq(orders.publicId, publicId))
    .limit(1);
  if (!order || order.state === 'awaiting_advance') throw notFound(ORDER_NOT_FOUND);
  if (viewer.side === 'customer' && order.userId !== viewer.userId) throw notFound(ORDER_NOT_FOUND);
  return { id: order.id, publicId: order.publicId };
}

export const toOrderFile = (r: typeof orderFiles.$inferSelect): OrderFile => ({
  id: r.id,
  name: r.name,
  size: r.size,
  contentType: r.contentType as OrderFileType,
  uploadedBy: r.uploadedBy,
  createdAt: r.createdAt.toISOString(),
});

export async function listOrderFiles(deps: AppDeps, order: OrderRef): Promise<OrderFile[]> {
  const rows = await deps.db
    .select()
    .from(orderFiles)
    .where(eq(orderFiles.orderId, order.id))
    .orderBy(asc(orderFiles.createdAt), asc(orderFiles.id));
  return rows.map(toOrderFile);
}

// The customer's file list in ONE named statement (docs/decisions/291-signed-in-reads-one-statement.md):
// orderFor's rule (their own order, past the checkout draft) and the files, a left join so an order
// without files is one row of nulls and a missing order none (the same 404).
const OWN_FILES_SQL = `select f.id, f.name, f.size::float8 as size, f.content_type, f.uploaded_by, f.created_at
       from orders o left join order_files f on f.order_id = o.id
      where o.public_id = $1 and o.user_id = $2 and o.state <> 'awaiting_advance'
      order by f.created_at, f.id`;

type OwnFileRow = {
  id: string | null;
  name: string;
  size: number;
  content_type: string;
  uploaded_by: 'customer' | 'agency';
  created_at: Date | string;
};

/** The files of the customer's own order, oldest first: `orderFor` then `listOrderFiles`, in one statement. */
export async function listOwnOrderFiles(deps: Pick<AppDeps, 'database'>, publicId: string, userId: string): Promise<OrderFile[]> {
  const rows = await deps.database.query<OwnFileRow>(OWN_FILES_SQL, [publicId, userId], 'own_order_files');
  if (!rows.length) throw notFound(ORDER_NOT_FOUND);
  return rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: r.id!,
      name: r.name,
      size: Number(r.size),
      contentType: r.content_type as OrderFileType,
      uploadedBy: r.uploaded_by,
      createdAt: (r.created_at instanceof Date ? r.created_at : new Date(r.created_at)).toISOString(),
    }));
}

async function fileOf(deps: AppDeps, order: OrderRef, fileId: string) {
  if (!UUID.test(fileId)) throw notFound(FILE_NOT_FOUND);
  const [row] = await deps.db
    .select()
    .from(orderFiles)
    .where(and(eq(orderFiles.id, fileId), eq(orderFiles.orderId, order.id)))
    .limit(1);
  if (!row) throw notFound(FILE_NOT_FOUND);
  return row;
}

/**
 * For features that refer to an order's files (a review's images, a message's attachments): the
 * rows of `fileIds`, all of them files of this order, or a 400 naming what is not — a file id of
 * another order is refused the same way as one that does not exist (nothing about it is said).
 */
export async function filesOfOrder(db: Db | Tx, order: OrderRef, fileIds: readonly string[]): Promise<(typeof orderFiles.$inferSelect)[]> {
  const wanted = [...new Set(fileIds)];
  if (!wanted.length) return [];
  const bad = wanted.filter((id) => !UUID.test(id));
  const rows = bad.length
    ? []
    : await db
        .select()
        .from(orderFiles)
        .where(and(eq(orderFiles.orderId, order.id), inArray(orderFiles.id, wanted)));
  const found = new Set(rows.map((r) => r.id));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) throw badRequest(`Not a file of this order: ${missing.slice(0, 5).join(', ')}.`);
  return wanted.map((id) => rows.find((r) => r.id === id)!);
}

/** The file's row and its bytes. A row whose bytes are gone (lost storage) is reported, then 404. */
export async function openOrderFile(
  deps: AppDeps,
  order: OrderRef,
  fileId: string,
): Promise<{ file: typeof orderFiles.$inferSelect; body: Readable }> {
  const file = await fileOf(deps, order, fileId);
  // Erased with its uploader's account: only the row (and, for an approved design, the hash) is left.
  if (file.storageKey.startsWith(ERASED_KEY_PREFIX)) throw notFound(FILE_NOT_FOUND);
  try {
    return { file, body: await deps.fileStorage.get(file.storageKey) };
  } catch (err) {
    if (!(err instanceof ObjectMissingError)) throw err;
    deps.log.error({ fileId, storageKey: file.storageKey }, 'order file: bytes missing from the file storage');
    throw notFound(FILE_NOT_FOUND);
  }
}

/**
 * Deletes one's own file (the customer theirs, the agency its own), unless another feature uses
 * it. The row goes first, in a transaction with the in-use checks; the bytes after the commit (a
 * failure there leaves an unreferenced object, never a row without bytes).
 */
export async function deleteOrderFile(deps: AppDeps, order: OrderRef, fileId: string, viewer: Viewer): Promise<void> {
  const file = await fileOf(deps, order, fileId);
  if (file.uploadedBy !== viewer.side) throw forbidden('You can delete only files you uploaded.');
  await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: orderFiles.id }).from(orderFiles).where(eq(orderFiles.id, file.id)).for('update');
    if (!locked) throw notFound(FILE_NOT_FOUND);
    const inUse = await fileInUse(deps.queries.fileInUse, tx, file.id);
    if (inUse) throw new AppError('CONFLICT', `This file cannot be deleted: ${inUse}.`);
    await tx.delete(orderFiles).where(eq(orderFiles.id, file.id));
    if (viewer.side === 'agency') {
      await recordAudit(tx, {
        actorUserId: viewer.userId,
        action: 'order.file.delete',
        entity: 'order',
        entityId: order.publicId,
        before: { fileId: file.id, name: file.name, size: file.size, contentType: file.contentType, sha256: file.sha256 },
        after: null,
      });
    }
  });
  await deps.fileStorage
    .delete(file.storageKey)
    .catch((err: unknown) => deps.log.warn({ err, storageKey: file.storageKey }, 'order file: bytes not deleted'));
}

/** The agency opened the order's files now: later customer uploads are new to it. */
export async function markFilesSeenByAgency(deps: AppDeps, orderId: string, at = new Date()) {
  await deps.db
    .insert(orderFileReads)
    .values({ orderId, agencyReadAt: at })
    .onConflictDoUpdate({ target: orderFileReads.orderId, set: { agencyReadAt: at } });
}
