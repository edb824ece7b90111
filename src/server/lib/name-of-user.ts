import { eq } from 'drizzle-orm';
import { authorNameOf } from '../../domain/author-name.ts';
import type { Db, Tx } from '../db/client.ts';
import { users } from '../db/schema/platform.ts';

/** A person's display name (null without one, or without a user): what a message shows of its author (docs/decisions/271-message-author-names.md). */
export async function nameOfUser(db: Db | Tx, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return row?.name ?? null;
}

/** What a message shows of its author, read from the author's account: "Ravi · Webcraft Studio" (docs/decisions/271-message-author-names.md). */
export async function authorNameOfUser(
  db: Db | Tx,
  sender: 'customer' | 'agency',
  userId: string | null,
  brand: string,
): Promise<string | null> {
  return authorNameOf(sender, await nameOfUser(db, userId), brand);
}
