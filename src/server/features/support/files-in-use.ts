import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { supportMessageFiles, supportRequestFiles } from '../../db/schema/support.ts';

/** "It is attached to a support request": such a file stays (order-files' in-use hook). */
export async function fileInSupport(tx: Tx, fileId: string): Promise<string | null> {
  const [onRequest] = await tx
    .select({ id: supportRequestFiles.requestId })
    .from(supportRequestFiles)
    .where(eq(supportRequestFiles.fileId, fileId))
    .limit(1);
  if (onRequest) return 'It is attached to a support request.';
  const [onMessage] = await tx
    .select({ id: supportMessageFiles.messageId })
    .from(supportMessageFiles)
    .where(eq(supportMessageFiles.fileId, fileId))
    .limit(1);
  return onMessage ? 'It is attached to a message on a support request.' : null;
}
