import { describe, expect, it } from 'vitest';
import { monthlyReturn, RETURN_CSV, returnDate, type ReturnDocument } from './gst-return.ts';

// Worked figures (docs/decisions/245-gstr1-monthly-return.md): a Bengaluru agency (GSTIN state 29),
// 18 % GST, SAC 998314, November 2026. Amounts in paise.
const KA = { code: '29', name: 'Karnataka' };
const MH = { code: '27', name: 'Maharashtra' };
const DL = { code: '07', name: 'Delhi' };
const OTHER = { code: '96', name: 'Other Countries' };
const cgst = (amount: number) => ({ kind: 'CGST' as const, rate: 9, amount });
const sgst = (amount: number) => ({ kind: 'SGST' as const, rate: 9, amount });
const igst = (amount: number) => ({ kind: 'IGST' as const, rate: 18, amount });

const doc = (
  d: Partial<ReturnDocument> & Pick<ReturnDocument, 'id' | 'number' | 'kind' | 'date' | 'taxableValue' | 'taxes'>,
): ReturnDocument => ({
  cancelled: false,
  buyerName: 'Buyer',
  buyerGstin: null,
  supplyType: 'intra',
  placeOfSupply: KA,
  sac: '998314',
  value: d.taxableValue + d.taxes.reduce((s, t) => s + t.amount, 0),
  refersTo: null,
  underLut: false,
  ...d,
});

// Karnataka business (GSTIN 29…): ₹50,000 + CGST ₹4,500 + SGST ₹4,500 = ₹59,000; advance in October
// ₹11,800 = ₹10,000 + ₹900 + ₹900; the tax invoice in November adjusts it.
const kaRv = doc({
  id: 'ka-rv',
  number: 'RV/2026-27/0001',
  kind: 'receipt_voucher',
  date: '2026-10-05',
  buyerName: 'Kaveri Traders',
  buyerGstin: '29AAGCB7383J1Z4',
  taxableValue: 10_000_00,
  taxes: [cgst(900_00), sgst(900_00)],
});
const kaInv = doc({
  id: 'ka-inv',
  number: 'INV/2026-27/0001',
  kind: 'tax_invoice',
  date: '2026-11-03',
  buyerName: 'Kaveri Traders',
  buyerGstin: '29AAGCB7383J1Z4',
  taxableValue: 50_000_00,
  taxes: [cgst(4_500_00), sgst(4_500_00)],
  refersTo: 'ka-rv',
});
// Maharashtra consumer: ₹50,000 + IGST ₹9,000 = ₹59,000 (not above ₹1 lakh: B2C small); advance and
// invoice both in November, so no advance line either way.
const mhRv = doc({
  id: 'mh-rv',
  number: 'RV/2026-27/0003',
  kind: 'receipt_voucher',
  date: '2026-11-02',
  supplyType: 'inter',
  placeOfSupply: MH,
  taxableValue: 10_000_00,
  taxes: [igst(1_800_00)],
});
const mhInv = doc({
  id: 'mh-inv',
  number: 'INV/2026-27/0002',
  kind: 'tax_invoice',
  date: '2026-11-20',
  supplyType: 'inter',
  placeOfSupply: MH,
  taxableValue: 50_000_00,
  taxes: [igst(9_000_00)],
  refersTo: 'mh-rv',
});
// US buyer under a LUT: $500 at ₹83 = ₹41,500, zero-rated; advance $100 = ₹8,300 in October.
const usRv = doc({
  id: 'us-rv',
  number: 'RV/2026-27/0002',
  kind: 'receipt_voucher',
  date: '2026-10-09',
  supplyType: 'export',
  placeOfSupply: OTHER,
  underLut: true,
  taxableValue: 8_300_00,
  taxes: [],
});
const usInv = doc({
  id: 'us-inv',
  number: 'INV/2026-27/0003',
  kind: 'tax_invoice',
  date: '2026-11-25',
  supplyType: 'export',
  placeOfSupply: OTHER,
  underLut: true,
  taxableValue: 41_500_00,
  taxes: [],
  refersTo: 'us-rv',
});
// Delhi consumer: ₹1,00,000 + IGST ₹18,000; advance ₹23,600 = ₹20,000 + ₹3,600 in November, not
// invoiced by the month's end: tax paid on an advance.
const dlRv = doc({
  id: 'dl-rv',
  number: 'RV/2026-27/0004',
  kind: 'receipt_voucher',
  date: '2026-11-28',
  supplyType: 'inter',
  placeOfSupply: DL,
  taxableValue: 20_000_00,
  taxes: [igst(3_600_00)],
});

const history = [kaRv, usRv, mhRv, kaInv, mhInv, usInv, dlRv];

describe('GSTR-1 from the documents', () => {
  const r = monthlyReturn('2026-11', history);

  it('puts each tax invoice in its table', () => {
    expect(r.tables.b2b.rows).toEqual([
      expect.objectContaining({
        gstin: '29AAGCB7383J1Z4',
        invoiceNumber: 'INV/2026-27/0001',
        invoiceValue: 59_000_00,
        placeOfSupply: '29-Karnataka',
        rate: 18,
        taxableValue: 50_000_00,
        centralTax: 4_500_00,
        stateTax: 4_500_00,
      }),
    ]);
    expect(r.tables.b2cl.rows).toEqual([]);
    expect(r.tables.b2cs.rows).toEqual([
      expect.objectContaining({ type: 'OE', placeOfSupply: '27-Maharashtra', rate: 18, taxableValue: 50_000_00, integratedTax: 9_000_00 }),
    ]);
    expect(r.tables.exp.rows).toEqual([
      expect.objectContaining({ exportType: 'WOPAY', invoiceNumber: 'INV/2026-27/0003', rate: 0, taxableValue: 41_500_00 }),
    ]);
  });

  it('reports the advance not invoiced by the month end, and the earlier advances the invoices adjust', () => {
    expect(r.tables.at.rows).toEqual([
      { placeOfSupply: '07-Delhi', rate: 18, grossAdvance: 20_000_00, integratedTax: 3_600_00, centralTax: 0, stateTax: 0 },
    ]);
    expect(r.tables.atadj.rows).toEqual([
      { placeOfSupply: '29-Karnataka', rate: 18, grossAdvance: 10_000_00, integratedTax: 0, centralTax: 900_00, stateTax: 900_00 },
      { placeOfSupply: '96-Other Countries', rate: 0, grossAdvance: 8_300_00, integratedTax: 0, centralTax: 0, stateTax: 0 },
    ]);
  });

  it('summarises the supplies per SAC and rate, and counts the documents issued', () => {
    expect(r.tables.hsn.rows).toEqual([
      expect.objectContaining({ hsn: '998314', rate: 0, taxableValue: 41_500_00, totalValue: 41_500_00 }),
      expect.objectContaining({
        hsn: '998314',
        rate: 18,
        taxableValue: 1_00_000_00,
        integratedTax: 9_000_00,
        centralTax: 4_500_00,
        stateTax: 4_500_00,
        totalValue: 1_18_000_00,
      }),
    ]);
    expect(r.tables.docs.rows).toEqual([
      { nature: 'Invoices for outward supply', from: 'INV/2026-27/0001', to: 'INV/2026-27/0003', totalNumber: 3, cancelled: 0 },
      { nature: 'Receipt Voucher', from: 'RV/2026-27/0003', to: 'RV/2026-27/0004', totalNumber: 2, cancelled: 0 },
    ]);
    expect(r.reconciled).toBe(true);
  });

  it('in October, both advances are still open', () => {
    const oct = monthlyReturn(
      '2026-10',
      history.filter((d) => d.date < '2026-11'),
    );
    expect(oct.tables.at.totals.grossAdvance).toBe(18_300_00);
    expect(oct.tables.b2b.rows).toEqual([]);
  });

  it('a refund voucher in a later month adjusts the advance; a large inter-State consumer invoice is B2CL; a credit note on it is in cdnur', () => {
    const dlRf = doc({ ...dlRv, id: 'dl-rf', number: 'RF/2026-27/0001', kind: 'refund_voucher', date: '2026-12-02', refersTo: 'dl-rv' });
    const dec = monthlyReturn('2026-12', [...history, dlRf]);
    expect(dec.tables.atadj.rows).toEqual([expect.objectContaining({ placeOfSupply: '07-Delhi', grossAdvance: 20_000_00 })]);
    const big = doc({
      id: 'dl-inv',
      number: 'INV/2026-27/0004',
      kind: 'tax_invoice',
      date: '2026-12-10',
      supplyType: 'inter',
      placeOfSupply: DL,
      taxableValue: 1_00_000_00,
      taxes: [igst(18_000_00)],
      refersTo: 'dl-rv',
    });
    const cn = doc({
      id: 'dl-cn',
      number: 'CN/2026-27/0001',
      kind: 'credit_note',
      date: '2026-12-15',
      supplyType: 'inter',
      placeOfSupply: DL,
      taxableValue: 10_000_00,
      taxes: [igst(1_800_00)],
      refersTo: 'dl-inv',
    });
    const dec2 = monthlyReturn('2026-12', [...history, big, cn]);
    expect(dec2.tables.b2cl.rows).toEqual([expect.objectContaining({ invoiceNumber: 'INV/2026-27/0004', invoiceValue: 1_18_000_00 })]);
    expect(dec2.tables.cdnur.rows).toEqual([
      expect.objectContaining({ urType: 'B2CL', noteNumber: 'CN/2026-27/0001', noteValue: 11_800_00, taxableValue: 10_000_00 }),
    ]);
    expect(dec2.tables.hsn.totals.taxableValue).toBe(90_000_00);
    expect(dec2.reconciled).toBe(true);
  });

  it('a credit note on a B2C small invoice reduces its b2cs line; a cancelled document counts only in docs', () => {
    const cn = doc({
      id: 'mh-cn',
      number: 'CN/2026-27/0002',
      kind: 'credit_note',
      date: '2026-11-29',
      supplyType: 'inter',
      placeOfSupply: MH,
      taxableValue: 5_000_00,
      taxes: [igst(900_00)],
      refersTo: 'mh-inv',
    });
    const cancelled = doc({ ...mhInv, id: 'x', number: 'INV/2026-27/0009', cancelled: true });
    const r2 = monthlyReturn('2026-11', [...history, cn, cancelled]);
    expect(r2.tables.b2cs.rows).toEqual([
      expect.objectContaining({ placeOfSupply: '27-Maharashtra', taxableValue: 45_000_00, integratedTax: 8_100_00 }),
    ]);
    expect(r2.tables.docs.rows[0]).toEqual(expect.objectContaining({ totalNumber: 4, cancelled: 1 }));
    expect(r2.reconciled).toBe(true);
  });

  it('writes the offline tool layout: rupees with paise, dates like 03-Nov-2026', () => {
    expect(returnDate('2026-11-03')).toBe('03-Nov-2026');
    expect(RETURN_CSV.b2b.row(r.tables.b2b.rows[0]!)).toEqual([
      '29AAGCB7383J1Z4',
      'Kaveri Traders',
      'INV/2026-27/0001',
      '03-Nov-2026',
      '59000.00',
      '29-Karnataka',
      'N',
      '',
      'Regular B2B',
      '',
      18,
      '50000.00',
      '',
    ]);
    expect(RETURN_CSV.b2b.header).toHaveLength(RETURN_CSV.b2b.row(r.tables.b2b.rows[0]!).length);
  });
});
