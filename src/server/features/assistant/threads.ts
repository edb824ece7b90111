import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import type { LlmMessage } from '../../integrations/llm/openai-compatible.ts';

// The assistant's memory lives here; the browser holds only the thread id, so a
// client cannot forge a history or read anyone else's.
const THREAD_ID = /^[A-Za-z0-9_-]{32}$/;
const MAX_TURNS = 50;
const HISTORY_MESSAGES = 6;
const RETENTION_DAYS = 30;

export const newThreadId = () => randomBytes(24).toString('base64url');

/** The thread named by `memory` if we issued it and it still has room, otherwise a new one. */
export async function resolveThread(database: Database, memory: unknown): Promise<string> {
  if (typeof memory === 'string' && THREAD_ID.test(memory)) {
    const rows = await database.query<{ turns: number }>('select turns from assistant_threads where id = $1', [memory]);
    if (rows[0] && rows[0].turns < MAX_TURNS) return memory;
  }
  const id = newThreadId();
  await database.query('insert into assistant_threads (id) values ($1)', [id]);
  return id;
}

export async function recentHistory(database: Database, threadId: string): Promise<LlmMessage[]> {
  const rows = await database.query<{ role: 'user' | 'assistant'; content: string }>(
    'select role, content from assistant_messages where thread_id = $1 order by seq desc limit $2',
    [threadId, HISTORY_MESSAGES],
  );
  return rows.reverse().map((r) => ({ role: r.role, content: r.content }));
}

export async function appendTurn(database: Database, threadId: string, question: string, answer: string) {
  await database.query(
    `with q as (insert into assistant_messages (thread_id, role, content) values ($1, 'user', $2), ($1, 'assistant', $3))
     update assistant_threads set turns = turns + 1, updated_at = now() where id = $1`,
    [threadId, question, answer],
  );
}

export async function deleteOldThreads(database: Database) {
  await database.query(`delete from assistant_threads where updated_at < now() - make_interval(days => $1)`, [RETENTION_DAYS]);
}
