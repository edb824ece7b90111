import { asc, eq } from 'drizzle-orm';
import type { Addon, PublicAddonsResponse } from '../../../contract/changes.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { type Currency, floorMajor, toMinor } from '../../../domain/money.ts';
import type { AppDeps } from '../../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { addons } from '../../db/schema/changes.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { moneyContext } from '../../lib/money-context.ts';

// The add-ons catalogue (docs/decisions/250-change-requests.md): quotes prepared in advance, priced
// in the base currency (USD cents) and converted like the plan — base × factor, whole units down.

type AddonRow = typeof addons.$inferSelect;

export const toAddon = (r: AddonRow): Addon => ({
  id: r.id,
  name: r.name,
  description: r.description,
  price: r.price,
  extraDays: r.extraDays,
  active: r.active,
});

/** An add-on's price in a currency, in its minor units (the plan's rule, domain/pricing.ts planPrices). */
export const addonAmount = (basePriceCents: number, currency: Currency) =>
  toMinor(floorMajor((basePriceCents / 100) * currency.factor), currency);

export async function listAddons(db: Db | Tx, opts: { activeOnly?: boolean } = {}): Promise<AddonRow[]> {
  return db
    .select()
    .from(addons)
    .where(opts.activeOnly ? eq(addons.active, true) : undefined)
    .orderBy(asc(addons.position), asc(addons.createdAt));
}

export async function activeAddon(db: Db | Tx, id: string): Promise<AddonRow> {
  const [row] = await db.select().from(addons).where(eq(addons.id, id)).limit(1);
  if (!row || !row.active) throw notFound('Add-on not found.');
  return row;
}

/** The public list in a currency (the default one when none or an unknown one is asked). */
export async function publicAddons(deps: AppDeps, code: string | undefined): Promise<PublicAddonsResponse> {
  const ctx = moneyContext(deps);
  const currency = (code && findCurrency(code, ctx.currencies)) || ctx.defaultCurrency;
  if (code && currency.code !== code) throw badRequest(`Unknown currency ${code}.`);
  const rows = await listAddons(deps.db, { activeOnly: true });
  return {
    currency: currency.code,
    symbol: currency.symbol,
    minorDigits: currency.minorDigits,
    addons: rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      extraDays: r.extraDays,
      amount: addonAmount(r.price, currency),
      currency: currency.code,
    })),
  };
}

export interface AddonInput {
  name?: string;
  description?: string;
  price?: number;
  extraDays?: number;
  active?: boolean;
}

export async function createAddon(deps: AppDeps, actorUserId: string, input: Required<AddonInput>): Promise<Addon> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx.insert(addons).values(input).returning();
    await recordAudit(tx, {
      actorUserId,
      action: 'addon.create',
      entity: 'addon',
      entityId: row!.id,
      before: null,
      after: toAddon(row!),
    });
    return toAddon(row!);
  });
}

export async function updateAddon(deps: AppDeps, actorUserId: string, id: string, input: AddonInput): Promise<Addon> {
  return deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(addons).where(eq(addons.id, id)).for('update');
    if (!before) throw notFound('Add-on not found.');
    const [row] = await tx
      .update(addons)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(addons.id, id))
      .returning();
    await recordAudit(tx, {
      actorUserId,
      action: 'addon.update',
      entity: 'addon',
      entityId: id,
      before: toAddon(before),
      after: toAddon(row!),
    });
    return toAddon(row!);
  });
}
