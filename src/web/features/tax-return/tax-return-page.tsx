import { useState } from 'react';
import type { TaxReturnResponse } from '../../../contract/tax-return.ts';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/text-field.tsx';
import { Badge, Card, ErrorText, Loadable, PageHeader, Table, td } from '../../components/back-office/admin-ui.tsx';
import { downloadCsv } from '../../components/back-office/download-csv.ts';
import { thisMonth } from '../../components/back-office/format.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminTaxReturnsByPeriod } from '../../../contract/tax-return.ts';
import { getAdminTaxReturnsByFile } from '../../../contract/admin-leads.ts';

// Back office, owner only: the month's return (docs/decisions/245-gstr1-monthly-return.md). Every
// figure comes from the server, computed from the issued documents; buyer names are typed by
// customers and only ever rendered as React text.

type Table = TaxReturnResponse['tables'][string];
type Cell = string | number | null;

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2 });
/** Paise → "₹59,000.00". */
const rupees = (paise: Cell) => (typeof paise === 'number' ? inr.format(paise / 100) : (paise ?? '—'));

interface Column {
  key: string;
  label: string;
  money?: boolean;
}
const money = (key: string, label: string): Column => ({ key, label, money: true });
const TAX_COLUMNS = [
  money('taxableValue', 'Taxable value'),
  money('integratedTax', 'IGST'),
  money('centralTax', 'CGST'),
  money('stateTax', 'SGST'),
];

/** The tables of GSTR-1, in the order of the form, with the columns the owner checks. */
const GST_TABLES: { name: string; title: string; note: string; columns: Column[] }[] = [
  {
    name: 'b2b',
    title: 'B2B — registered buyers (4A)',
    note: 'One line per tax invoice to a buyer with a GSTIN.',
    columns: [
      { key: 'gstin', label: 'GSTIN' },
      { key: 'receiverName', label: 'Buyer' },
      { key: 'invoiceNumber', label: 'Invoice' },
      { key: 'invoiceDate', label: 'Date' },
      { key: 'placeOfSupply', label: 'Place of supply' },
      money('invoiceValue', 'Invoice value'),
      ...TAX_COLUMNS,
    ],
  },
  {
    name: 'b2cl',
    title: 'B2C large — other states, above ₹1 lakh (5)',
    note: 'Invoice by invoice: inter-State supplies to unregistered buyers above ₹1,00,000.',
    columns: [
      { key: 'invoiceNumber', label: 'Invoice' },
      { key: 'invoiceDate', label: 'Date' },
      { key: 'placeOfSupply', label: 'Place of supply' },
      money('invoiceValue', 'Invoice value'),
      money('taxableValue', 'Taxable value'),
      money('integratedTax', 'IGST'),
    ],
  },
  {
    name: 'b2cs',
    title: 'B2C small (7)',
    note: 'Other supplies to unregistered buyers, by place of supply and rate (credit notes reduce their line).',
    columns: [{ key: 'placeOfSupply', label: 'Place of supply' }, { key: 'rate', label: 'Rate %' }, ...TAX_COLUMNS],
  },
  {
    name: 'exp',
    title: 'Exports (6A)',
    note: 'WOPAY: under the LUT, without IGST; WPAY: with IGST.',
    columns: [
      { key: 'exportType', label: 'Type' },
      { key: 'invoiceNumber', label: 'Invoice' },
      { key: 'invoiceDate', label: 'Date' },
      money('invoiceValue', 'Value (INR)'),
      { key: 'rate', label: 'Rate %' },
      money('integratedTax', 'IGST'),
    ],
  },
  {
    name: 'at',
    title: 'Advances received, not invoiced (11A)',
    note: 'Receipt vouchers of this month whose work was neither invoiced nor the advance refunded by the month’s end.',
    columns: [
      { key: 'placeOfSupply', label: 'Place of supply' },
      { key: 'rate', label: 'Rate %' },
      money('grossAdvance', 'Advance (taxable)'),
      money('integratedTax', 'IGST'),
      money('centralTax', 'CGST'),
      money('stateTax', 'SGST'),
    ],
  },
  {
    name: 'atadj',
    title: 'Advances adjusted (11B)',
    note: 'Earlier months’ advances invoiced or refunded this month.',
    columns: [
      { key: 'placeOfSupply', label: 'Place of supply' },
      { key: 'rate', label: 'Rate %' },
      money('grossAdvance', 'Advance (taxable)'),
      money('integratedTax', 'IGST'),
      money('centralTax', 'CGST'),
      money('stateTax', 'SGST'),
    ],
  },
  {
    name: 'cdnr',
    title: 'Credit notes — registered buyers (9B)',
    note: '',
    columns: [
      { key: 'gstin', label: 'GSTIN' },
      { key: 'noteNumber', label: 'Note' },
      { key: 'noteDate', label: 'Date' },
      money('noteValue', 'Note value'),
      ...TAX_COLUMNS,
    ],
  },
  {
    name: 'cdnur',
    title: 'Credit notes — unregistered buyers (9B)',
    note: 'Notes on B2C large invoices and exports.',
    columns: [
      { key: 'urType', label: 'Type' },
      { key: 'noteNumber', label: 'Note' },
      { key: 'noteDate', label: 'Date' },
      money('noteValue', 'Note value'),
      ...TAX_COLUMNS,
    ],
  },
  {
    name: 'hsn',
    title: 'SAC summary (12)',
    note: 'Invoices less credit notes, per SAC and rate.',
    columns: [{ key: 'hsn', label: 'SAC' }, { key: 'rate', label: 'Rate %' }, money('totalValue', 'Total value'), ...TAX_COLUMNS],
  },
  {
    name: 'docs',
    title: 'Documents issued (13)',
    note: 'Every series, cancelled documents included.',
    columns: [
      { key: 'nature', label: 'Nature of document' },
      { key: 'from', label: 'From' },
      { key: 'to', label: 'To' },
      { key: 'totalNumber', label: 'Total' },
      { key: 'cancelled', label: 'Cancelled' },
    ],
  },
];
const UNREGISTERED_TABLES: typeof GST_TABLES = [
  {
    name: 'documents',
    title: 'Documents of the month',
    note: 'Receipts, invoices and credit notes issued while not registered under GST.',
    columns: [
      { key: 'number', label: 'Number' },
      { key: 'date', label: 'Date' },
      { key: 'buyer', label: 'Buyer' },
      { key: 'currency', label: 'Currency' },
      money('inrValue', 'Value (INR)'),
      { key: 'cancelled', label: 'Cancelled' },
    ],
  },
];

/** Names typed by people wrap; numbers, dates and codes stay whole. */
const WRAPPING = new Set(['receiverName', 'buyer', 'nature']);

function ReturnTable({
  period,
  name,
  title,
  note,
  columns,
  table,
  onError,
}: {
  period: string;
  name: string;
  title: string;
  note: string;
  columns: Column[];
  table: Table;
  onError(e: string | null): void;
}) {
  const totalsRow = columns.some((c) => c.money && table.totals[c.key] !== undefined);
  return (
    <Card title={title}>
      <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
        {note && <p className="max-w-2xl text-sm text-muted">{note}</p>}
        <Button
          variant="secondary"
          className="min-h-11"
          onClick={async () =>
            onError(await downloadCsv(getAdminTaxReturnsByFile, { params: { period, file: `${name}.csv` } }, `${name}-${period}.csv`))
          }
        >
          Download {name}.csv
        </Button>
      </div>
      {table.rows.length === 0 ? (
        <p className="text-sm text-muted">Nothing this month.</p>
      ) : (
        <Table label={title} head={columns.map((c) => c.label)}>
          {table.rows.map((row, i) => (
            <tr key={i} className="border-t border-line">
              {columns.map((c) => (
                <td
                  key={c.key}
                  className={`${td}
                    ${c.money ? 'whitespace-nowrap tabular-nums' : WRAPPING.has(c.key) ? 'min-w-[9rem] break-words' : 'whitespace-nowrap'}`}
                >
                  {c.money ? rupees(row[c.key] ?? null) : String(row[c.key] ?? '—')}
                </td>
              ))}
            </tr>
          ))}
          {totalsRow && (
            <tr className="border-t border-line font-semibold text-white">
              {columns.map((c, i) => (
                <td key={c.key} className={`${td} whitespace-nowrap tabular-nums`}>
                  {c.money ? rupees(table.totals[c.key] ?? null) : i === 0 ? 'Total' : ''}
                </td>
              ))}
            </tr>
          )}
        </Table>
      )}
    </Card>
  );
}

export default function TaxReturnPage() {
  const [period, setPeriod] = useState(thisMonth);
  const [csvError, setCsvError] = useState<string | null>(null);
  const valid = /^\d{4}-(0[1-9]|1[0-2])$/.test(period);
  const { data, error, loading } = useOperation(getAdminTaxReturnsByPeriod, valid ? { params: { period } } : null);
  const gst = data?.regime === 'gst';
  const turnover = data?.tables.turnover?.rows[0];

  return (
    <>
      <PageHeader title="Tax return" />
      <div className="mb-6 flex flex-wrap items-end gap-4">
        <label className="flex flex-col gap-1.5 text-sm font-medium text-ink">
          Month
          <input type="month" className={inputClass} value={period} max={thisMonth()} onChange={(e) => setPeriod(e.target.value)} />
        </label>
        {data && gst && (
          <p role="status" className="pb-2 text-sm">
            {data.liveDocuments === 0 ? (
              <Badge tone="warn">No live documents this month</Badge>
            ) : data.reconciled ? (
              <Badge tone="good">The tables add up to the month’s documents</Badge>
            ) : (
              <Badge tone="warn">The tables do not add up — see the checks below</Badge>
            )}
          </p>
        )}
      </div>
      {data && data.testDocuments > 0 && (
        <p className="mb-4 text-sm text-muted" data-testid="test-documents-left-out">
          {data.testDocuments} test document{data.testDocuments === 1 ? ' is' : 's are'} not part of the return (test-mode payments: no
          money moved, no tax is due).
        </p>
      )}
      {!valid && <ErrorText>Pick a month.</ErrorText>}
      {csvError && <ErrorText>{csvError}</ErrorText>}
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <div className="flex flex-col gap-6">
            {!gst && turnover && (
              <Card title="Not registered under GST">
                <p className="text-sm text-muted">
                  TAX_REGIME=none: documents carry no tax and there is no GSTR-1 to file. Turnover this financial year (
                  {String(turnover.financialYear)}) up to {data.period}:{' '}
                  <strong className="text-white">{rupees(turnover.turnover ?? null)}</strong> of the {rupees(turnover.threshold ?? null)}{' '}
                  registration threshold ({String(turnover.percent)} %).
                </p>
              </Card>
            )}
            {(gst ? GST_TABLES : UNREGISTERED_TABLES).map((t) => (
              <ReturnTable
                key={t.name}
                period={data.period}
                {...t}
                table={data.tables[t.name] ?? { rows: [], totals: {} }}
                onError={setCsvError}
              />
            ))}
            {gst && (
              <Card title="Checks">
                {data.liveDocuments === 0 ? (
                  <p className="text-sm text-muted" data-testid="no-live-documents">
                    No live documents this month: there is nothing to check or to file
                    {data.testDocuments > 0 ? ` (${data.testDocuments} test document${data.testDocuments === 1 ? '' : 's'} left out)` : ''}.
                  </p>
                ) : (
                  <Table label="Checks" head={['Check', 'Documents', 'Tables', '']}>
                    {data.checks.map((c) => (
                      <tr key={c.name} className="border-t border-line">
                        <td className={`${td} wrap-anywhere`}>{c.name}</td>
                        <td className={`${td} tabular-nums`}>{c.name.startsWith('Documents') ? c.expected : rupees(c.expected)}</td>
                        <td className={`${td} tabular-nums`}>{c.name.startsWith('Documents') ? c.actual : rupees(c.actual)}</td>
                        <td className={td}>{c.ok ? <Badge tone="good">OK</Badge> : <Badge tone="warn">Differs</Badge>}</td>
                      </tr>
                    ))}
                  </Table>
                )}
              </Card>
            )}
          </div>
        )}
      </Loadable>
    </>
  );
}
