import { sql } from 'drizzle-orm';
import type { CannedReply } from '../../../contract/chat-console.ts';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { sqlRows } from '../../lib/sql-rows.ts';

// Canned replies (docs/decisions/347-chat-availability-canned-replies-csat.md): kept by the owner,
// read by everyone in the console, inserted by typing the shortcut and Tab. Each change is audited.

type Row = { id: string; title: string; body: string; shortcut: string; updated_at: Date | string };
const toReply = (r: Row): CannedReply => ({
  id: r.id,
  title: r.title,
  text: r.body,
  shortcut: r.shortcut,
  updatedAt: new Date(r.updated_at).toISOString(),
});
const rowsOf = (res: unknown) => sqlRows<Row>(res);
const TAKEN = 'Another canned reply already has this shortcut.';

export async function listCannedReplies(db: Db): Promise<CannedReply[]> {
  return rowsOf(await db.execute(sql`select id, title, body, shortcut, updated_at from chat_canned_replies order by shortcut`)).map(
    toReply,
  );
}

/** A taken shortcut is a 409: the unique index decides, across instances too. */
async function unlessTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (code === '23505') throw conflict(TAKEN);
    throw err;
  }
}

export async function createCannedReply(
  db: Db,
  actorUserId: string,
  input: { title: string; text: string; shortcut: string },
): Promise<CannedReply> {
  return unlessTaken(() =>
    db.transaction(async (tx) => {
      const [row] = rowsOf(
        await tx.execute(sql`insert into chat_canned_replies (title, body, shortcut) values (${input.title}, ${input.text}, ${input.shortcut})
           on conflict (shortcut) do nothing returning id, title, body, shortcut, updated_at`),
      );
      if (!row) throw conflict(TAKEN);
      await recordAudit(tx, {
        actorUserId,
        action: 'canned_reply.create',
        entity: 'canned_reply',
        entityId: row.id,
        before: null,
        after: { shortcut: row.shortcut, title: row.title },
      });
      return toReply(row);
    }),
  );
}

async function lockedReply(tx: Tx, id: string): Promise<Row> {
  const [row] = rowsOf(
    await tx.execute(sql`select id, title, body, shortcut, updated_at from chat_canned_replies where id = ${id} for update`),
  );
  if (!row) throw notFound('No such canned reply.');
  return row;
}

export async function updateCannedReply(
  db: Db,
  actorUserId: string,
  id: string,
  patch: { title?: string; text?: string; shortcut?: string },
): Promise<CannedReply> {
  return unlessTaken(() =>
    db.transaction(async (tx) => {
      const before = await lockedReply(tx, id);
      const [row] = rowsOf(
        await tx.execute(sql`update chat_canned_replies set title = ${patch.title ?? before.title}, body = ${patch.text ?? before.body},
             shortcut = ${patch.shortcut ?? before.shortcut}, updated_at = now()
           where id = ${id} returning id, title, body, shortcut, updated_at`),
      );
      await recordAudit(tx, {
        actorUserId,
        action: 'canned_reply.update',
        entity: 'canned_reply',
        entityId: id,
        before: { shortcut: before.shortcut, title: before.title },
        after: { shortcut: row!.shortcut, title: row!.title },
      });
      return toReply(row!);
    }),
  );
}

export async function deleteCannedReply(db: Db, actorUserId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockedReply(tx, id);
    await tx.execute(sql`delete from chat_canned_replies where id = ${id}`);
    await recordAudit(tx, {
      actorUserId,
      action: 'canned_reply.delete',
      entity: 'canned_reply',
      entityId: id,
      before: { shortcut: before.shortcut, title: before.title },
      after: null,
    });
  });
}
