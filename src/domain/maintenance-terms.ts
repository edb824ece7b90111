import { MAINTENANCE_COVERAGE } from './maintenance-plan.ts';

// The maintenance plan's terms (docs/decisions/266-maintenance-terms-acceptance.md): shown as their
// own part of the terms page (#maintenance-plan) and accepted when subscribing; the server hashes
// this wording into the version it records with the subscription. `{price}` is filled in from
// MAINTENANCE_MONTHLY_PRICE when shown — the recorded subscription keeps the amount itself.

export const MAINTENANCE_TERMS_ANCHOR = 'maintenance-plan';
export const MAINTENANCE_TERMS_TITLE = 'Maintenance plan';

export const MAINTENANCE_TERMS: readonly string[] = [
  `After the included year of support, a delivered website can have a monthly maintenance plan for {price}: ${MAINTENANCE_COVERAGE}.`,
  'Subscribed while the included support runs, the plan starts when that support ends; nothing is charged before. Subscribed later, it starts at once.',
  'Each month is charged in advance by our payment provider, and each charge comes with a tax invoice for that month by e-mail.',
  'You can cancel at any time from the Support tab of your order: the plan then ends at the end of the month already paid, which is not refunded.',
];

/** The canonical text the version is computed from. */
export const maintenanceTermsCanonicalText = () => JSON.stringify({ title: MAINTENANCE_TERMS_TITLE, body: MAINTENANCE_TERMS });

export const fillMaintenanceTerms = (s: string, price: string) => s.replaceAll('{price}', price);
