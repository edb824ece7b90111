import { and, eq } from 'drizzle-orm';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import type { Db, Tx } from '../../db/client.ts';
import { orderStages } from '../../db/schema/orders.ts';

// The support window of a delivered order (decision 170): covered from the
// completion of stage 15 "Website Delivery" for SUPPORT_DAYS days, and longer while a paid plan
// covers it. The maintenance plan is another feature (features/maintenance): it is not imported
// here. It sets its *extension* on `deps.queries.supportExtension` when the app is built, and every
// reader of the window (the support routes, the 30-day offer job, the back office) passes that
// extension in (docs/decisions/315-support-extension-on-deps.md). So support never depends on
// maintenance and works the same before that feature exists (plan: null).

const DAY_MS = 86_400_000;

/** The plan as the customer's support page shows it (contract: `plan` of GET …/support). */
export interface SupportPlan {
  state: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** The first charge's date of a plan waiting for the included support to end; null otherwise. */
  startsAt?: Date | null;
}

/**
 * What an extension says about one order: its plan (or null when the order has none) and the end
 * of the period that plan has paid for, which extends support when later than the included year.
 * `coveredUntil` null means the plan covers nothing now (e.g. halted, or cancelled and ended).
 */
export interface SupportExtension {
  plan: SupportPlan;
  coveredUntil: Date | null;
}

/** Reads one order's extension inside the caller's connection or transaction; null when the order has none. */
export type SupportExtensionSource = (db: Db | Tx, orderId: string, now: Date) => Promise<SupportExtension | null>;

/**
 * The same extension's `coveredUntil` as one SQL expression (a timestamptz, null when its plan covers
 * nothing) for the order whose id is `orderIdSql` (e.g. `o.id`), set on the source function by its
 * feature: lists fold the window into their one statement (docs/decisions/285-signed-in-read-path.md).
 */
export type SupportExtensionSql = (orderIdSql: string) => string;

/**
 * The SQL forms an extension may carry on its function: `coveredUntilSql` (the order list folds the
 * window into its statement) and `planSql`, the extension's `plan` as a `json` value with the fields
 * of SupportPlan (timestamps as JSON strings), null when the order has none — the support page reads
 * it in its one statement (docs/decisions/291-signed-in-reads-one-statement.md).
 */
export interface SupportExtensionForms {
  coveredUntilSql?: SupportExtensionSql;
  planSql?: SupportExtensionSql;
}

/** An extension with its SQL forms, as `deps.queries.supportExtension` holds it. */
export type SupportExtensionQuery = SupportExtensionSource & SupportExtensionForms;

/**
 * What the extension has paid for, as one SQL expression for the order `orderIdSql`, or undefined
 * when it has no SQL form (the caller then asks supportWindow per order).
 */
export function extensionCoveredUntilSql(extension: SupportExtensionQuery | undefined, orderIdSql: string): string | undefined {
  if (!extension) return 'null::timestamptz';
  return extension.coveredUntilSql?.(orderIdSql);
}

/**
 * The extension's plan as one SQL `json` expression, or undefined when it lacks either SQL form (the
 * caller then reads the window with supportWindow).
 */
export function extensionPlanSql(extension: SupportExtensionQuery | undefined, orderIdSql: string): string | undefined {
  if (!extension) return 'null::json';
  if (!extension.planSql || !extension.coveredUntilSql) return undefined;
  return extension.planSql(orderIdSql);
}

/** The end of the support window from the delivery and what an extension paid for (windowOf's rule). */
export function supportUntilOf(deliveredAt: Date, supportDays: number, coveredUntil: Date | null): Date {
  const included = includedSupportEnd(deliveredAt, supportDays);
  return coveredUntil && coveredUntil > included ? coveredUntil : included;
}

export interface SupportWindow {
  /** When stage 15 was completed; null for an order not delivered. */
  deliveredAt: Date | null;
  /** Delivery + SUPPORT_DAYS: the included support. */
  includedUntil: Date | null;
  /** The later of the included support and what a plan has paid for; null when not delivered. */
  supportUntil: Date | null;
  /** Support covers `now` (strictly before `supportUntil`). */
  covered: boolean;
  plan: SupportPlan | null;
  /** What a plan has paid for, when it covers anything (the customer is a subscriber). */
  planCoveredUntil: Date | null;
}

/** Delivery + days, to the millisecond (a window is a duration, not calendar days in some zone). */
export const includedSupportEnd = (deliveredAt: Date, supportDays: number) => new Date(deliveredAt.getTime() + supportDays * DAY_MS);

/** The window from its parts (pure: the rule in one place, for the job's bulk reads too). */
export function windowOf(deliveredAt: Date | null, supportDays: number, extension: SupportExtension | null, now: Date): SupportWindow {
  const plan = extension?.plan ?? null;
  const paid = extension?.coveredUntil ?? null;
  if (!deliveredAt) return { deliveredAt: null, includedUntil: null, supportUntil: null, covered: false, plan, planCoveredUntil: paid };
  const includedUntil = includedSupportEnd(deliveredAt, supportDays);
  const supportUntil = supportUntilOf(deliveredAt, supportDays, paid);
  return { deliveredAt, includedUntil, supportUntil, covered: now < supportUntil, plan, planCoveredUntil: paid };
}

/** When the order was delivered (stage 15 completed), or null. */
export async function deliveredAt(db: Db | Tx, orderId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: orderStages.completedAt })
    .from(orderStages)
    .where(and(eq(orderStages.orderId, orderId), eq(orderStages.stage, DELIVERY_STAGE)))
    .limit(1);
  return row?.at ?? null;
}

/** The support window of one order at `now` (the clock is a parameter: tests and jobs move it). */
export async function supportWindow(
  db: Db | Tx,
  extension: SupportExtensionSource | undefined,
  supportDays: number,
  orderId: string,
  now: Date = new Date(),
): Promise<SupportWindow> {
  // One after the other: inside a transaction both run on its one connection anyway.
  const delivered = await deliveredAt(db, orderId);
  const paid = extension ? await extension(db, orderId, now) : null;
  return windowOf(delivered, supportDays, paid, now);
}
