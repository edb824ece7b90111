import { z } from 'zod';
import { RETURN_TABLES } from '../domain/gst-return.ts';
import { defineOperation } from './operation.ts';

// The monthly return in the back office (owner only; docs/decisions/245-gstr1-monthly-return.md):
// GET /api/v1/admin/tax/returns/{period} and …/{period}/{table}.csv. Amounts are paise.

/** YYYY-MM, a real month (2026-13, ../ and the like are refused with 400). */
export const taxPeriodParams = z.object({
  period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'period must be a month written YYYY-MM, e.g. 2026-11'),
});

const TABLE_FILES = [...RETURN_TABLES, 'documents', 'turnover'].map((t) => `${t}.csv`) as [string, ...string[]];
export const taxReturnCsvParams = taxPeriodParams.extend({
  file: z.enum(TABLE_FILES, { message: `table must be one of ${TABLE_FILES.join(', ')}` }),
});

const cell = z.union([z.string(), z.number(), z.null()]);
export const taxReturnTable = z.object({
  rows: z.array(z.record(z.string(), cell)),
  totals: z.record(z.string(), z.number()),
});

export const taxReturnResponse = z.object({
  period: z.string(),
  regime: z.enum(['none', 'gst']),
  tables: z.record(z.string(), taxReturnTable),
  /** Every check that the tables add up to the month's documents passed. */
  reconciled: z.boolean(),
  /** Additive: each check with its two figures (paise, or a count). */
  checks: z.array(z.object({ name: z.string(), expected: z.number(), actual: z.number(), ok: z.boolean() })),
  /** Additive (docs/decisions/320-order-ledger.md): TEST documents of the month (test-mode payments), not part of the return. */
  testDocuments: z.number().int(),
  /** Additive: live documents of the month; 0 means there is nothing to return, whatever the checks say. */
  liveDocuments: z.number().int(),
});
export type TaxReturnResponse = z.infer<typeof taxReturnResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** The month's return: GSTR-1 tables computed from the documents (TAX_REGIME=gst), or the documents and the year's turnover (none) */
export const getAdminTaxReturnsByPeriod = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/tax/returns/:period',
  params: taxPeriodParams,
  responses: { 200: taxReturnResponse },
});
