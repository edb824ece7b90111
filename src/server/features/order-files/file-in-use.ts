import type { Tx } from '../../db/client.ts';

// A file that another feature refers to (a design review's images, an attachment of a message
// that must stay readable) cannot be deleted. Those features do not exist in this module's view:
// each adds its own check here when it is built, so files never import reviews (docs/architecture.md,
// "Events and jobs"). A check answers why the file is in use, or null.

export type FileInUseCheck = (tx: Tx, fileId: string) => Promise<string | null>;

/** Why the file cannot be deleted, or null. Runs inside the deleting transaction. */
export async function fileInUse(checks: readonly FileInUseCheck[], tx: Tx, fileId: string): Promise<string | null> {
  for (const check of checks) {
    const reason = await check(tx, fileId);
    if (reason) return reason;
  }
  return null;
}

/** Whether a file is part of an approval record (an approved design round); each feature keeping one adds its check. */
export type FileApprovedCheck = (tx: Tx, fileId: string) => Promise<boolean>;
