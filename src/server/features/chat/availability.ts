import { sql } from 'drizzle-orm';
import type { ChatAvailability } from '../../../contract/chat-console.ts';
import { isWithinBusinessHours, nextOpening, nextOpeningAfterToday, parseBusinessHours } from '../../../domain/business-hours.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { sqlRows } from '../../lib/sql-rows.ts';

// The agency's availability in the live chat (docs/decisions/347-chat-availability-canned-replies-csat.md):
// the console's "available" / "away" switch (one row, chat_availability) and CHAT_BUSINESS_HOURS. Away,
// or outside the hours, visitors are in the offline mode: told when to expect a reply, asked for an
// e-mail, and the founder is e-mailed about the chat. Every instance caches the switch briefly; a change
// is announced on the bus (CHANGED) so each drops its copy and tells its visitors at once.

export const AVAILABILITY_CHANGED = 'chat-availability';
const CACHE_MS = 5_000;

export function createAvailability(deps: Pick<AppDeps, 'database' | 'config' | 'bus'>) {
  const hours = parseBusinessHours(deps.config.CHAT_BUSINESS_HOURS)!;
  let cached: { available: boolean; updatedAt: Date; at: number } | null = null;
  deps.bus.subscribe(AVAILABILITY_CHANGED, () => (cached = null));

  const read = async () => {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached;
    const [row] = await deps.database.query<{ available: boolean; updated_at: Date }>(
      'select available, updated_at from chat_availability where id = 1',
    );
    cached = { available: row?.available ?? true, updatedAt: row ? new Date(row.updated_at) : new Date(0), at: Date.now() };
    return cached;
  };

  async function status(now = new Date()): Promise<ChatAvailability> {
    const { available, updatedAt } = await read();
    const withinHours = isWithinBusinessHours(hours, now);
    const answering = available && withinHours;
    // Away within the hours: a reply is promised by the next opening after today's hours.
    const expect = answering ? null : withinHours ? nextOpeningAfterToday(hours, now) : nextOpening(hours, now);
    return {
      available,
      withinHours,
      businessHours: deps.config.CHAT_BUSINESS_HOURS,
      expectReplyAt: expect ? expect.toISOString() : null,
      updatedAt: updatedAt.toISOString(),
    };
  }

  /** The switch, audited with the change; every instance hears of it through the bus. */
  async function set(available: boolean, actorUserId: string) {
    await deps.database.db.transaction(async (tx) => {
      const [before] = sqlRows<{ available: boolean }>(
        await tx.execute(sql`select available from chat_availability where id = 1 for update`),
      );
      await tx.execute(
        sql`update chat_availability set available = ${available}, updated_by = ${actorUserId}, updated_at = now() where id = 1`,
      );
      await recordAudit(tx, {
        actorUserId,
        action: 'chat.availability',
        entity: 'chat',
        entityId: 'availability',
        before: { available: before?.available ?? true },
        after: { available },
      });
    });
    cached = null;
    deps.bus.publish(AVAILABILITY_CHANGED);
    return status();
  }

  return { status, set };
}
export type ChatAvailabilityService = ReturnType<typeof createAvailability>;
