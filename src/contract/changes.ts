import { z } from 'zod';
import { multiLine } from './text-policy.ts';
import { currencyCode } from './pricing.ts';
import { defineOperation } from './operation.ts';

// Change requests on an order and the add-ons catalogue (docs/decisions/250-change-requests.md).
// Amounts are integer minor units, tax excluded; the quote with tax comes from create-order.

export const CHANGE_STATES = ['requested', 'quoted', 'accepted', 'declined', 'withdrawn', 'included'] as const;
export type ChangeState = (typeof CHANGE_STATES)[number];
export const CHANGE_LIMITS = {
  title: 120,
  description: 4000,
  note: 1000,
  reason: 1000,
  files: 10,
  maxExtraDays: 90,
  addonName: 80,
  addonDescription: 500,
} as const;
/** A quote may not exceed this many times the order's plan price (a typo guard). */
export const CHANGE_MAX_PLAN_MULTIPLE = 10;

export const changeSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  fileIds: z.array(z.string()),
  state: z.enum(CHANGE_STATES),
  amount: z.number().int().nullable(),
  currency: z.string(),
  extraDays: z.number().int(),
  note: z.string().nullable(),
  addonId: z.string().nullable(),
  quotedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  invoiceId: z.string().nullable(),
  createdBy: z.enum(['customer', 'agency']),
  createdAt: z.string(),
  /** Why it was declined, when it was. */
  declineReason: z.string().nullable(),
});
export type OrderChange = z.infer<typeof changeSchema>;

export const changesResponse = z.object({ changes: z.array(changeSchema) });
export const changeResponse = z.object({ change: changeSchema });

export const changeOrderParams = z.object({
  orderId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not an order id.'),
});
export const changeParams = changeOrderParams.extend({
  changeId: z.uuid('Not a change id.'),
});

const title = z
  .string()
  .trim()
  .min(1, 'Give the change a title.')
  .max(CHANGE_LIMITS.title, `A title can be at most ${CHANGE_LIMITS.title} characters.`);
const description = multiLine(z.string())
  .trim()
  .max(CHANGE_LIMITS.description, `A description can be at most ${CHANGE_LIMITS.description} characters.`);
const fileIds = z.array(z.uuid('Not a file id.')).max(CHANGE_LIMITS.files, `At most ${CHANGE_LIMITS.files} files.`).optional();
/** Minor units of the order's currency, tax excluded; the plan-price ceiling is checked by the server. */
const amount = z
  .number({ message: 'The amount must be a whole number of minor units.' })
  .int('The amount must be a whole number of minor units (paise, cents).')
  .positive('A quote must be more than 0; mark the change included to do it at no charge.')
  .max(Number.MAX_SAFE_INTEGER);
const extraDays = z
  .number()
  .int('Extra days must be a whole number.')
  .min(0, 'Extra days cannot be negative.')
  .max(CHANGE_LIMITS.maxExtraDays, `At most ${CHANGE_LIMITS.maxExtraDays} extra days.`);
const note = multiLine(z.string()).trim().max(CHANGE_LIMITS.note, `A note can be at most ${CHANGE_LIMITS.note} characters.`);

export const createChangeBody = z.strictObject({
  title,
  description: description.default(''),
  fileIds,
  addonId: z.uuid('Not an add-on id.').optional(),
});
export type CreateChangeBody = z.infer<typeof createChangeBody>;

export const declineChangeBody = z
  .strictObject({
    reason: multiLine(z.string())
      .trim()
      .max(CHANGE_LIMITS.reason, `A reason can be at most ${CHANGE_LIMITS.reason} characters.`)
      .optional(),
  })
  .optional()
  .default({});

export const adminCreateChangeBody = z
  .strictObject({
    title,
    description: description.default(''),
    amount: amount.optional(),
    extraDays: extraDays.optional(),
    note: note.optional(),
    included: z.boolean().optional(),
  })
  .refine((b) => !(b.included && b.amount !== undefined), {
    message: 'An included change has no amount.',
    path: ['amount'],
  });
export type AdminCreateChangeBody = z.infer<typeof adminCreateChangeBody>;

export const quoteChangeBody = z.strictObject({
  amount,
  extraDays,
  note: note.optional(),
});
export type QuoteChangeBody = z.infer<typeof quoteChangeBody>;

// Add-ons.
const addonName = z
  .string()
  .trim()
  .min(1, 'Give the add-on a name.')
  .max(CHANGE_LIMITS.addonName, `A name can be at most ${CHANGE_LIMITS.addonName} characters.`)
  .refine((s) => !/[<>]/.test(s), 'A name cannot contain < or >.');
const addonDescription = multiLine(z.string())
  .trim()
  .max(CHANGE_LIMITS.addonDescription, `A description can be at most ${CHANGE_LIMITS.addonDescription} characters.`);
/** Minor units of the base currency (USD cents). */
const addonPrice = z
  .number()
  .int('The price must be a whole number of cents.')
  .positive('The price must be more than 0.')
  .max(100_000_000, 'The price is too large.');

export const addonSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Minor units of the base currency (USD cents). */
  price: z.number().int(),
  extraDays: z.number().int(),
  active: z.boolean(),
});
export type Addon = z.infer<typeof addonSchema>;
export const adminAddonsResponse = z.object({ addons: z.array(addonSchema) });
export const adminAddonResponse = z.object({ addon: addonSchema });
export const createAddonBody = z.strictObject({
  name: addonName,
  description: addonDescription.default(''),
  price: addonPrice,
  extraDays: extraDays.default(0),
  active: z.boolean().default(true),
});
export const patchAddonBody = z
  .strictObject({
    name: addonName.optional(),
    description: addonDescription.optional(),
    price: addonPrice.optional(),
    extraDays: extraDays.optional(),
    active: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to change.');
export const addonParams = z.object({ id: z.uuid('Not an add-on id.') });

/** The public list: active add-ons priced in a currency like the plan (base price × factor, whole units). */
export const publicAddonsQuery = z.object({
  currency: currencyCode.optional(),
});
export const publicAddonSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  extraDays: z.number().int(),
  amount: z.number().int(),
  currency: z.string(),
});
export type PublicAddon = z.infer<typeof publicAddonSchema>;
export const publicAddonsResponse = z.object({
  currency: z.string(),
  symbol: z.string(),
  minorDigits: z.number().int(),
  addons: z.array(publicAddonSchema),
});
export type PublicAddonsResponse = z.infer<typeof publicAddonsResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** The order's change requests, oldest first (amounts in minor units, tax excluded) */
export const getOrdersChanges = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/changes',
  params: changeOrderParams,
  responses: { 200: changesResponse },
});

/** Asks for a change (409 once the order is delivered); from an add-on it arrives quoted at its price and days */
export const postOrdersChanges = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/changes',
  params: changeOrderParams,
  body: createChangeBody,
  responses: { 201: changeResponse },
});

/** Declines a quote, with an optional reason (409 once accepted, declined or withdrawn) */
export const postOrdersChangesDecline = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/changes/:changeId/decline',
  params: changeParams,
  body: declineChangeBody,
  responses: { 200: changeResponse },
});

/** Its author takes a change back before it is accepted (409 otherwise) */
export const postOrdersChangesWithdraw = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/changes/:changeId/withdraw',
  params: changeParams,
  responses: { 200: changeResponse },
});

/** The active add-ons priced in a currency like the plan (minor units, tax excluded) */
export const getAddons = defineOperation({
  method: 'GET',
  path: '/api/v1/addons',
  query: publicAddonsQuery,
  responses: { 200: publicAddonsResponse },
});

/** An order's change requests */
export const getAdminOrdersChanges = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/changes',
  params: changeOrderParams,
  responses: { 200: changesResponse },
});

/** Raises a change: quoted with an amount, included (no charge) when marked so, else requested. Audited */
export const postAdminOrdersChanges = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:orderId/changes',
  params: changeOrderParams,
  body: adminCreateChangeBody,
  responses: { 201: changeResponse },
});

/** Quotes or re-quotes a change while it is not accepted (409 after). Audited */
export const postAdminOrdersChangesQuote = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:orderId/changes/:changeId/quote',
  params: changeParams,
  body: quoteChangeBody,
  responses: { 200: changeResponse },
});

/** The add-ons catalogue, inactive ones too */
export const getAdminAddons = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/addons',
  responses: { 200: adminAddonsResponse },
});

/** Adds an add-on (price in base-currency cents). Owner only; audited */
export const postAdminAddons = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/addons',
  body: createAddonBody,
  responses: { 201: adminAddonResponse },
});

/** Edits an add-on (or switches it off). Owner only; audited */
export const patchAdminAddonsById = defineOperation({
  method: 'PATCH',
  path: '/api/v1/admin/addons/:id',
  params: addonParams,
  body: patchAddonBody,
  responses: { 200: adminAddonResponse },
});
