import type { Database } from '../../db/client.ts';
import { conflict } from '../../lib/app-error.ts';

// CSAT (docs/decisions/347-chat-availability-canned-replies-csat.md): a closed chat is rated 1–5 once
// by its visitor; the primary key on the chat keeps "once" across sockets and instances.

export const CHAT_RATING_DAYS = 30;

export async function rateClosedChat(database: Database, chatId: string, score: number, comment: string | null): Promise<void> {
  const rows = await database.query(
    'insert into chat_ratings (chat_id, score, comment) values ($1, $2, $3) on conflict (chat_id) do nothing returning chat_id',
    [chatId, score, comment],
  );
  if (rows.length === 0) throw conflict('This chat is already rated. Thank you!');
}

/** The average chat rating of the last 30 days (one decimal), and how many, for the ratings card. */
export async function chatRatingAverage(
  database: Database,
  now = new Date(),
): Promise<{ average30Days: number | null; count30Days: number }> {
  const [row] = await database.query<{ average: string | null; n: number }>(
    `select avg(score) as average, count(*)::int as n from chat_ratings where created_at >= $1::timestamptz - interval '${CHAT_RATING_DAYS} days'`,
    [now],
  );
  return { average30Days: row?.average == null ? null : Math.round(Number(row.average) * 10) / 10, count30Days: Number(row?.n ?? 0) };
}

/** The median first-response time (seconds) of the chats started in the last 30 days that were answered, for the overview. */
export async function medianFirstResponse(database: Database, firstResponseSql: string, now = new Date()): Promise<number | null> {
  const [row] = await database.query<{ median: string | null }>(
    `select percentile_cont(0.5) within group (order by s) as median from (
       select ${firstResponseSql} as s from chat_conversations c where c.created_at >= $1::timestamptz - interval '${CHAT_RATING_DAYS} days') t
     where s is not null and s >= 0`,
    [now],
  );
  return row?.median == null ? null : Math.round(Number(row.median));
}
