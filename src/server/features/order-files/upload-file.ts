import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { OrderFile } from '../../../contract/order-files.ts';
import type { AppDeps } from '../../deps.ts';
import { orderFileQuotaLocks, orderFiles } from '../../db/schema/order-files.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { TooLargeError } from '../../integrations/storage/file-storage.ts';
import { ACCEPTED_TYPES_TEXT, decideFileType } from './file-type.ts';
import { sanitizeFileName } from './file-name.ts';
import { inspectUpload } from './inspect-upload.ts';
import type { OrderRef, Viewer } from './order-files.ts';
import { toOrderFile } from './order-files.ts';

const MB = 1024 * 1024;
export const maxUploadBytes = (c: AppDeps['config']) => Math.floor(c.MAX_UPLOAD_MB * MB);
export const quotaBytes = (c: AppDeps['config']) => Math.floor(c.ORDER_FILES_QUOTA_MB * MB);
const mb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** Uploads are kept under tmp/ until they are checked and counted; nothing there is ever served. */
export const TEMP_PREFIX = 'tmp/';
const finalKey = (orderId: string, fileId: string) => `orders/${orderId}/${fileId}`;

const tooLarge = (max: number) => new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${mb(max)}, the most one upload may be.`);

/** Errors of the multipart stream that mean "the upload did not arrive whole". */
function uploadError(err: unknown, max: number): AppError | null {
  if (err instanceof TooLargeError) return tooLarge(max);
  const code = (err as { code?: string })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(max);
  if (
    code === 'FST_MP_PREMATURE_CLOSE' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    /unexpected end of (form|multipart)/i.test(String((err as Error)?.message))
  ) {
    return new AppError('BAD_REQUEST', 'The upload was interrupted before the file was complete; nothing was stored. Please try again.');
  }
  return null;
}

/** The bytes the order's files take now. */
async function usedBytes(db: AppDeps['db'], orderId: string): Promise<number> {
  const [used] = await db
    .select({ bytes: sql<string>`coalesce(sum(${orderFiles.size}), 0)::text` })
    .from(orderFiles)
    .where(eq(orderFiles.orderId, orderId));
  return Number(used?.bytes ?? 0);
}

const quotaFull = (quota: number, used: number, size: number) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `This order's files may take ${mb(quota)} in all; ${mb(used)} are used and this file has ${mb(size)}. Delete a file you ` +
      `no longer need, or ask us to raise the limit.`,
  );

/**
 * Refusals that need no byte of the body: a declared length far over the per-file limit, or an
 * order whose files already fill the quota. Only a courtesy (the client learns at once instead of
 * after sending 26 MB); the byte counter and the locked quota check below decide.
 */
export async function refuseEarly(deps: AppDeps, order: OrderRef, declaredLength: number | undefined): Promise<void> {
  const max = maxUploadBytes(deps.config);
  // The form around the file (boundaries, part headers) is small: 64 KB is plenty.
  if (declaredLength !== undefined && declaredLength > max + 64 * 1024) throw tooLarge(max);
  const quota = quotaBytes(deps.config);
  const used = await usedBytes(deps.db, order.id);
  if (used >= quota) throw quotaFull(quota, used, declaredLength ?? 0);
}

/**
 * Stores one uploaded file for an order.
 * 1. The bytes stream to a temporary key with the byte limit; type, size and sha-256 are gathered
 *    on the way. A cut-off or too large upload leaves nothing (the driver removes its partial object).
 * 2. The type is decided from the bytes; a refused type is deleted and answered 415.
 * 3. In one transaction: the order's quota row is locked, the order's files are added up, the row
 *    is inserted and the object moved to its own key. Parallel uploads queue on the lock, so they
 *    cannot pass the quota together; a failure anywhere removes the object again.
 */
export async function uploadOrderFile(
  deps: AppDeps,
  order: OrderRef,
  viewer: Viewer,
  upload: { filename: string; file: Readable },
): Promise<OrderFile> {
  const storage = deps.fileStorage;
  const max = maxUploadBytes(deps.config);
  const quota = quotaBytes(deps.config);
  const name = sanitizeFileName(upload.filename);
  const id = randomUUID();
  const tempKey = `${TEMP_PREFIX}${id}`;
  const key = finalKey(order.id, id);
  let moved = false;

  const inspector = inspectUpload();
  // The multipart stream's own errors (cut off, its size limit) end the inspection with them.
  upload.file.once('error', (err) => inspector.destroy(err));
  upload.file.pipe(inspector);

  try {
    try {
      await storage.put(tempKey, inspector, { maxBytes: max });
    } catch (err) {
      throw uploadError(err, max) ?? err;
    }
    // A parser that cut the file at its own limit marks it truncated: never keep a cut file.
    if ((upload.file as { truncated?: boolean }).truncated) throw tooLarge(max);
    const facts = inspector.result();
    const type = decideFileType(facts, name);
    if (!type.ok)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `"${name}" was not accepted: ${type.reason}. Accepted are ${ACCEPTED_TYPES_TEXT}.`);

    const row = await deps.events.transaction(async (tx) => {
      await tx.insert(orderFileQuotaLocks).values({ orderId: order.id }).onConflictDoNothing();
      await tx.select().from(orderFileQuotaLocks).where(eq(orderFileQuotaLocks.orderId, order.id)).for('update');
      const used = await usedBytes(tx, order.id);
      if (used + facts.size > quota) throw quotaFull(quota, used, facts.size);
      const [inserted] = await tx
        .insert(orderFiles)
        .values({
          id,
          orderId: order.id,
          uploaderUserId: viewer.userId,
          uploadedBy: viewer.side,
          name,
          size: facts.size,
          contentType: type.type,
          sha256: facts.sha256,
          storageKey: key,
        })
        .returning();
      if (viewer.side === 'agency') {
        await recordAudit(tx, {
          actorUserId: viewer.userId,
          action: 'order.file.upload',
          entity: 'order',
          entityId: order.publicId,
          before: null,
          after: { fileId: id, name, size: facts.size, contentType: type.type, sha256: facts.sha256 },
        });
      }
      // A customer's file is news for the founder (docs/decisions/277-founder-notices-brief-and-files.md).
      await deps.events.publish(tx, 'file.uploaded', {
        orderId: order.id,
        orderPublicId: order.publicId,
        fileId: id,
        uploadedBy: viewer.side,
        at: inserted!.createdAt,
      });
      // Last step of the transaction: if the move fails the row is rolled back with it.
      await storage.move(tempKey, key);
      moved = true;
      return inserted!;
    });
    return toOrderFile(row);
  } catch (err) {
    // Nothing half-stored: neither the temporary object nor (if the commit failed after the move) the final one.
    upload.file.resume();
    await storage.delete(tempKey).catch(() => {});
    if (moved) await storage.delete(key).catch(() => {});
    throw err;
  }
}
