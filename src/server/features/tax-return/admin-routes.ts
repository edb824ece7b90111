import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RETURN_CSV, returnDate, type ReturnTableName } from '../../../domain/gst-return.ts';
import type { AppDeps } from '../../deps.ts';
import { toCsv } from '../../lib/csv.ts';
import { taxReturn } from './monthly-return.ts';
import { route } from '../../lib/route.ts';
import { getAdminTaxReturnsByPeriod } from '../../../contract/tax-return.ts';
import { getAdminTaxReturnsByFile } from '../../../contract/admin-leads.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];
const rupees = (paise: unknown) => (typeof paise === 'number' ? (paise / 100).toFixed(2) : String(paise ?? ''));

/** The not-registered page's two lists as CSV (no offline-tool layout: there is no return to file). */
const UNREGISTERED_CSV = {
  documents: {
    header: ['Number', 'Kind', 'Date', 'Buyer', 'Currency', 'Amount', 'INR value', 'Cancelled'],
    row: (r: Record<string, unknown>) => [
      r.number,
      r.kind,
      returnDate(String(r.date)),
      r.buyer,
      r.currency,
      r.amount,
      rupees(r.inrValue),
      r.cancelled,
    ],
  },
  turnover: {
    header: ['Financial year', 'Up to', 'Turnover (INR)', 'Registration threshold (INR)', 'Percent'],
    row: (r: Record<string, unknown>) => [r.financialYear, r.upTo, rupees(r.turnover), rupees(r.threshold), r.percent],
  },
};

/** Back office, owner only (features/admin/permissions.ts): the month's GSTR-1 tables and their CSV. */
export const adminTaxReturnRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(
    app,
    getAdminTaxReturnsByPeriod,
    {
      schema: {
        tags,
        security,
        summary:
          "The month's return: GSTR-1 tables computed from the documents (TAX_REGIME=gst), or the documents and the year's turnover (none)",
      },
    },
    async (request) => taxReturn(deps, request.params.period),
  );
  route(
    app,
    getAdminTaxReturnsByFile,
    {
      schema: {
        tags,
        security,
        summary: "One table of the month's return as CSV, in the column layout of the GST offline tool's template (e.g. b2b.csv)",
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { period, file } = request.params;
      const name = file.replace(/\.csv$/, '');
      const result = await taxReturn(deps, period);
      const table = result.tables[name];
      const layout = (
        result.regime === 'gst' ? RETURN_CSV[name as ReturnTableName] : UNREGISTERED_CSV[name as keyof typeof UNREGISTERED_CSV]
      ) as { header: string[]; row: (r: Record<string, string | number | null>) => unknown[] } | undefined;
      if (!table || !layout) {
        return reply
          .code(404)
          .send({ success: false, code: 'NOT_FOUND', message: `There is no ${name} table when TAX_REGIME=${result.regime}.` });
      }
      return reply
        .headers({
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${name}-${period}.csv"`,
          'cache-control': 'no-store',
        })
        .send(
          toCsv(
            layout.header,
            table.rows.map((r) => layout.row(r)),
          ),
        );
    },
  );
};
