import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { AdminCoupon, CouponListResponse, CreateCouponBody, UpdateCouponBody } from '../../../contract/admin-coupons.ts';
import { couponState, isValidWindow } from '../../../domain/admin.ts';
import type { Db } from '../../db/client.ts';
import { coupons } from '../../db/schema/coupons.ts';
import { siteSettings } from '../../db/schema/site-settings.ts';
import { users } from '../../db/schema/platform.ts';
import { badRequest, conflict, notFound } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit-log.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { couponUseCounts } from './coupon-usage.ts';

export const FEATURED_KEY = 'featured_promotion';
type CouponRow = typeof coupons.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toAdminCoupon(c: CouponRow, redemptions: number, featuredCode: string | null, now = new Date()): AdminCoupon {
  return {
    id: c.id,
    code: c.code,
    percent: c.percent,
    description: c.description,
    validFrom: iso(c.validFrom),
    validUntil: iso(c.validUntil),
    active: c.active,
    maxUses: c.maxUses,
    maxUsesPerCustomer: c.maxUsesPerCustomer,
    redemptions,
    state: couponState({ ...c, redemptions }, now),
    featured: c.code === featuredCode,
    createdAt: c.createdAt.toISOString(),
  };
}

/** A snapshot for the audit log: the fields an admin can change. */
const snapshot = (c: CouponRow) => ({
  code: c.code,
  percent: c.percent,
  description: c.description,
  validFrom: iso(c.validFrom),
  validUntil: iso(c.validUntil),
  active: c.active,
  maxUses: c.maxUses,
  maxUsesPerCustomer: c.maxUsesPerCustomer,
});

export async function featuredCouponCode(db: Db): Promise<string | null> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, FEATURED_KEY));
  const code = (row?.value as { couponCode?: unknown } | undefined)?.couponCode;
  return typeof code === 'string' ? code : null;
}

export async function listCoupons(db: Db): Promise<CouponListResponse> {
  const [rows, uses, featuredCode] = await Promise.all([
    db
      .select({ coupon: coupons, ownerEmail: users.email, ownerName: users.name })
      .from(coupons)
      .leftJoin(users, eq(users.id, coupons.ownerUserId))
      .orderBy(asc(coupons.kind), desc(coupons.createdAt)),
    couponUseCounts(db),
    featuredCouponCode(db),
  ]);
  const promos = rows
    .filter((r) => r.coupon.kind === 'promo')
    .map((r) => toAdminCoupon(r.coupon, uses.get(r.coupon.code) ?? 0, featuredCode));
  const referrals = rows
    .filter((r) => r.coupon.kind === 'referral')
    .map((r) => ({
      id: r.coupon.id,
      code: r.coupon.code,
      percent: r.coupon.percent,
      active: r.coupon.active,
      ownerUserId: r.coupon.ownerUserId ?? '',
      ownerEmail: r.ownerEmail ?? '',
      ownerName: r.ownerName,
      uses: uses.get(r.coupon.code) ?? 0,
    }));
  return { promos, referrals, featuredCode };
}

const toDate = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

export async function createCoupon(db: Db, actorUserId: string, body: CreateCouponBody & { code: string }): Promise<AdminCoupon> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(coupons)
        .values({
          code: body.code,
          kind: 'promo',
          percent: body.percent,
          description: body.description ?? null,
          validFrom: toDate(body.validFrom) ?? null,
          validUntil: toDate(body.validUntil) ?? null,
          maxUses: body.maxUses ?? null,
          maxUsesPerCustomer: body.maxUsesPerCustomer === undefined ? 1 : body.maxUsesPerCustomer,
        })
        .returning();
      await recordAudit(tx, {
        actorUserId,
        action: 'coupon.create',
        entity: 'coupon',
        entityId: row!.id,
        before: null,
        after: snapshot(row!),
      });
      return toAdminCoupon(row!, 0, null);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A coupon with the code ${body.code} already exists.`);
    throw err;
  }
}

async function promoForUpdate(tx: Db, id: string): Promise<CouponRow> {
  const [row] = await tx.select().from(coupons).where(eq(coupons.id, id)).for('update');
  if (!row) throw notFound('No such coupon.');
  if (row.kind !== 'promo') throw badRequest('Referral codes are read-only.');
  return row;
}

export async function updateCoupon(db: Db, actorUserId: string, id: string, body: UpdateCouponBody): Promise<AdminCoupon> {
  return db.transaction(async (tx) => {
    const before = await promoForUpdate(tx, id);
    const validFrom = body.validFrom === undefined ? iso(before.validFrom) : body.validFrom;
    const validUntil = body.validUntil === undefined ? iso(before.validUntil) : body.validUntil;
    if (!isValidWindow(validFrom, validUntil)) throw badRequest('Invalid body. validUntil: The end must be after the start.');
    const featuredCode = await featuredCouponCode(tx);
    if (body.active === false && before.active && before.code === featuredCode) throw featuredConflict();
    const [after] = await tx
      .update(coupons)
      .set({
        percent: body.percent,
        description: body.description,
        validFrom: toDate(body.validFrom),
        validUntil: toDate(body.validUntil),
        maxUses: body.maxUses,
        maxUsesPerCustomer: body.maxUsesPerCustomer,
        active: body.active,
      })
      .where(eq(coupons.id, id))
      .returning();
    await recordAudit(tx, {
      actorUserId,
      action: 'coupon.update',
      entity: 'coupon',
      entityId: id,
      before: snapshot(before),
      after: snapshot(after!),
    });
    const uses = await couponUseCounts(tx, after!.code);
    return toAdminCoupon(after!, uses.get(after!.code) ?? 0, featuredCode);
  });
}

const featuredConflict = () => conflict('This coupon drives the banner. Feature another coupon first, then deactivate this one.');

export async function deactivateCoupon(db: Db, actorUserId: string, id: string): Promise<AdminCoupon> {
  return db.transaction(async (tx) => {
    const before = await promoForUpdate(tx, id);
    const featuredCode = await featuredCouponCode(tx);
    if (before.code === featuredCode) throw featuredConflict();
    const [after] = await tx.update(coupons).set({ active: false }).where(eq(coupons.id, id)).returning();
    await recordAudit(tx, {
      actorUserId,
      action: 'coupon.deactivate',
      entity: 'coupon',
      entityId: id,
      before: snapshot(before),
      after: snapshot(after!),
    });
    const uses = await couponUseCounts(tx, after!.code);
    return toAdminCoupon(after!, uses.get(after!.code) ?? 0, featuredCode);
  });
}

/** Chooses the promo coupon shown by the banner, popup and countdown (site setting). */
export async function featureCoupon(db: Db, actorUserId: string, code: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [coupon] = await tx
      .select()
      .from(coupons)
      .where(and(eq(coupons.code, code), eq(coupons.kind, 'promo')));
    if (!coupon) throw notFound('No such promo coupon.');
    if (!coupon.active) throw badRequest('Only an active coupon can drive the banner.');
    const before = await featuredCouponCode(tx);
    const value = { couponCode: coupon.code };
    await tx
      .insert(siteSettings)
      .values({ key: FEATURED_KEY, value })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: sql`now()` } });
    await recordAudit(tx, {
      actorUserId,
      action: 'promotion.feature',
      entity: 'setting',
      entityId: FEATURED_KEY,
      before: { couponCode: before },
      after: value,
    });
    return coupon.code;
  });
}
