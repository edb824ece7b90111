import type { Tx } from '../../db/client.ts';

// A file that another feature refers to (a design review's images, an attachment of a message
// that must stay readable) cannot be deleted. Those features do not exist in this module's view:
// each answers the question on `deps.queries.fileInUse`, added once at build time from its
// subscriptions.ts (docs/architecture.md, "Events and jobs"), so files never import reviews.
// A check answers why the file is in use, or null.

export type FileInUseCheck = (tx: Tx, fileId: string) => Promise<string | null>;

/** Why the file cannot be deleted, or null. Runs inside the deleting transaction. */
export async function fileInUse(checks: readonly FileInUseCheck[], tx: Tx, fileId: string): Promise<string | null> {
  for (const check of checks) {
    const reason = await check(tx, fileId);
    if (reason) return reason;
  }
  return null;
}
