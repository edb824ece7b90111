import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { paymentEvents } from '../db/schema/orders.ts';
import { createDomainEvents, type DomainEvents, type StageUndone } from './domain-events.ts';

// The rule of decision 100 on a real database: in-transaction reactions are part of the change,
// after-commit reactions happen only for a committed change, in publication order.

let t: TestApp;
let events: DomainEvents;
const errors: unknown[] = [];
const seen: string[] = [];

const undone = (stage: number): StageUndone => ({ orderId: 'o', orderPublicId: `ORD${stage}`, customerEmail: 'c@example.com', stage });
/** A row the in-transaction reaction writes, so a rollback is visible. */
const rowsOf = async (id: string) => t.deps.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, id));

beforeAll(async () => {
  t = await buildTestApp();
  events = createDomainEvents(t.deps.db, { error: (o: unknown) => void errors.push(o) } as never);
  events.inTransaction('stage.undone', async (e, tx) => {
    if (e.stage === 99) throw new Error('refused in the transaction');
    await tx
      .insert(paymentEvents)
      .values({ provider: 'events-test', eventId: e.orderPublicId, eventType: 'stage.undone', outcome: 'seen' });
  });
  events.afterCommit('stage.undone', async (e) => void seen.push(`first ${e.orderPublicId}`));
  events.afterCommit('stage.undone', async (e) => {
    if (e.stage === 7) throw new Error('mail server down');
    seen.push(`second ${e.orderPublicId}`);
  });
}, 180_000);
afterAll(async () => t?.close());

describe('domain events', () => {
  it('runs in-transaction reactions in the change and after-commit ones after it, in publication order', async () => {
    seen.length = 0;
    const result = await events.transaction(async (tx) => {
      await events.publish(tx, 'stage.undone', undone(1));
      await events.publish(tx, 'stage.undone', undone(2));
      expect(seen).toEqual([]); // nothing leaves before the commit
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual(['first ORD1', 'second ORD1', 'first ORD2', 'second ORD2']);
    expect(await rowsOf('ORD1')).toHaveLength(1);
  });

  it('sends nothing for a rolled-back change, and an in-transaction failure rolls the change back', async () => {
    seen.length = 0;
    await expect(
      events.transaction(async (tx) => {
        await events.publish(tx, 'stage.undone', undone(3));
        throw new Error('the change fails later');
      }),
    ).rejects.toThrow('the change fails later');
    await expect(
      events.transaction(async (tx) => {
        await events.publish(tx, 'stage.undone', undone(4));
        await events.publish(tx, 'stage.undone', undone(99));
      }),
    ).rejects.toThrow('refused in the transaction');
    expect(seen).toEqual([]);
    expect([...(await rowsOf('ORD3')), ...(await rowsOf('ORD4'))]).toEqual([]);
  });

  it('drops the reactions of a failed savepoint and keeps the others', async () => {
    seen.length = 0;
    await events.transaction(async (tx) => {
      await events.savepoint(tx, (sp) => events.publish(sp, 'stage.undone', undone(5)));
      await events
        .savepoint(tx, async (sp) => {
          await events.publish(sp, 'stage.undone', undone(6));
          throw new Error('skip this one');
        })
        .catch(() => undefined);
    });
    expect(seen).toEqual(['first ORD5', 'second ORD5']);
    expect(await rowsOf('ORD5')).toHaveLength(1);
    expect(await rowsOf('ORD6')).toEqual([]);
  });

  it('logs a failing after-commit reaction and still runs the rest; the change stands', async () => {
    seen.length = 0;
    errors.length = 0;
    await events.transaction(async (tx) => {
      await events.publish(tx, 'stage.undone', undone(7));
      await events.publish(tx, 'stage.undone', undone(10));
    });
    expect(seen).toEqual(['first ORD7', 'first ORD10', 'second ORD10']);
    expect(errors).toHaveLength(1);
    expect(await rowsOf('ORD7')).toHaveLength(1);
  });

  it('refuses to publish outside a transaction it opened', async () => {
    await expect(t.deps.db.transaction((tx) => events.publish(tx, 'stage.undone', undone(8)))).rejects.toThrow(
      /outside events.transaction/,
    );
    expect(await rowsOf('ORD8')).toEqual([]);
  });
});
