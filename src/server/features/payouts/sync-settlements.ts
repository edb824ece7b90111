import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AppDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { razorpayReconReads, razorpaySettlementItems, razorpaySettlements } from '../../db/schema/payouts.ts';
import {
  ProviderUnavailableError,
  type ProviderReconItem,
  type ProviderSettlement,
  type SettlementApi,
} from '../../integrations/payments/provider.ts';
import { AppError, conflict } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { moneyContext } from '../../lib/money-context.ts';
import { aroundMonth, localMonth, previousMonth } from './months.ts';

// Reads Razorpay's settlements and their recon lines and keeps them, upserted by Razorpay's ids
// (docs/decisions/323-razorpay-settlements.md): a second read of the same month stores nothing
// twice, and a line Razorpay corrected since is refreshed. Razorpay is read first, with no
// transaction open (docs/decisions/230-provider-calls-outside-locks.md); everything read is then
// written in one transaction.

export const NO_RAZORPAY =
  'Payouts come from Razorpay: set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET (the built-in test checkout pays nothing out).';

/** Razorpay's settlements API, or null when payments go through the built-in test checkout. */
export const settlementApiOf = (deps: AppDeps): SettlementApi | null => moneyContext(deps).provider.settlements ?? null;

/** The months a scheduled read covers: this one and the last, so a payout at a month's turn is read in full. */
export const recentMonths = (deps: AppDeps, now: Date) => {
  const current = localMonth(now, deps.config.INVOICE_TIME_ZONE);
  return [previousMonth(current), current];
};

export interface SyncResult {
  settlements: number;
  items: number;
}

const unix = (at: Date) => Math.floor(at.getTime() / 1000);
const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** Reads the months' settlements and recon lines (oldest month first) and stores them; `audit` names the owner who asked. */
export async function syncSettlements(deps: AppDeps, months: string[], now: Date, audit?: { actorUserId: string }): Promise<SyncResult> {
  const api = settlementApiOf(deps);
  if (!api) throw conflict(NO_RAZORPAY);
  const sorted = [...new Set(months)].sort();
  let settlements: ProviderSettlement[];
  const recon: { month: string; items: ProviderReconItem[] }[] = [];
  try {
    settlements = await api.list({ from: unix(aroundMonth(sorted[0]!).from), to: unix(aroundMonth(sorted.at(-1)!).to) });
    for (const month of sorted) {
      const [year, m] = month.split('-').map(Number) as [number, number];
      recon.push({ month, items: await api.recon({ year, month: m }) });
    }
  } catch (err) {
    if (err instanceof ProviderUnavailableError)
      throw new AppError(
        'BAD_GATEWAY',
        `Razorpay could not be read just now; nothing was changed. Please try again in a minute. (${err.message})`,
      );
    throw err;
  }
  const items = recon.flatMap((r) => r.items);
  await deps.db.transaction(async (tx) => {
    await storeSettlements(tx, settlements, now);
    await storeItems(tx, items, now);
    for (const r of recon) {
      await tx
        .insert(razorpayReconReads)
        .values({ month: r.month, readAt: now, items: r.items.length })
        .onConflictDoUpdate({ target: razorpayReconReads.month, set: { readAt: now, items: r.items.length } });
    }
    if (audit) {
      await recordAudit(tx, {
        actorUserId: audit.actorUserId,
        action: 'payouts.sync',
        entity: 'payment',
        entityId: null,
        before: null,
        after: { months: sorted, settlements: settlements.length, items: items.length },
      });
    }
  });
  return { settlements: settlements.length, items: items.length };
}

/** An upsert's `set`: every column but the key, as the row offered it (Postgres' `excluded`). */
function fromExcluded(table: PgTable, key: string) {
  return Object.fromEntries(
    Object.entries(getTableColumns(table))
      .filter(([name]) => name !== key)
      .map(([name, column]) => [name, sql.raw(`excluded.${column.name}`)]),
  );
}

async function storeSettlements(tx: Db, rows: ProviderSettlement[], now: Date) {
  if (!rows.length) return;
  await tx
    .insert(razorpaySettlements)
    .values(
      rows.map((s) => ({
        id: s.id,
        amount: s.amount,
        fees: s.fees,
        tax: s.tax,
        utr: s.utr,
        status: s.status,
        createdAt: fromUnix(s.created_at),
        readAt: now,
      })),
    )
    .onConflictDoUpdate({ target: razorpaySettlements.id, set: fromExcluded(razorpaySettlements, 'id') });
}

async function storeItems(tx: Db, rows: ProviderReconItem[], now: Date) {
  // One row per Razorpay id: a line listed twice in one read (two pages that overlapped) is kept once.
  const unique = [...new Map(rows.map((i) => [i.entity_id, i])).values()];
  for (let i = 0; i < unique.length; i += 500) {
    await tx
      .insert(razorpaySettlementItems)
      .values(
        unique.slice(i, i + 500).map((r) => ({
          entityId: r.entity_id,
          type: r.type,
          settlementId: r.settlement_id,
          settlementUtr: r.settlement_utr,
          amount: r.amount,
          fee: r.fee,
          tax: r.tax,
          debit: r.debit,
          credit: r.credit,
          currency: r.currency,
          settledAt: fromUnix(r.settled_at),
          providerOrderId: r.order_id,
          paymentId: r.payment_id,
          readAt: now,
        })),
      )
      .onConflictDoUpdate({ target: razorpaySettlementItems.entityId, set: fromExcluded(razorpaySettlementItems, 'entityId') });
  }
}
