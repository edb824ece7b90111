import { useState, type FormEvent } from 'react';
import type { BillingDetails } from '../../../contract/invoices.ts';
import { COUNTRIES } from '../../../domain/countries.ts';
import { INDIAN_STATES } from '../../../domain/gst.ts';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { TextAreaField, TextField } from '../../components/ui/text-field.tsx';
import { Button } from '../../components/ui/button.tsx';
import { getInvoicesBillingDetails, putInvoicesBillingDetails } from '../../../contract/invoices.ts';

const EMPTY: BillingDetails = { billingName: '', billingAddress: '', taxId: '', country: '', stateCode: '', gstin: '' };
const selectClass =
  'w-full rounded-xl border border-line bg-card px-3 py-2.5 text-ink focus:outline-none focus:ring-2 focus:ring-accent-soft';

/**
 * Optional billing name, address and tax id (GSTIN) printed on the customer's next invoices
 *. Folded away: most customers pay without it and the profile's name is used.
 */
export function BillingDetailsForm({ onSaved, defaultCountry = 'IN' }: { onSaved?: () => void; defaultCountry?: string }) {
  // The form starts from the saved details, read when it opens; then it keeps what is typed.
  const read = useOperation(getInvoicesBillingDetails, {}, { fresh: true });
  const [edited, setForm] = useState<BillingDetails | null>(null);
  const saved = read.data?.billing;
  const form: BillingDetails =
    edited ?? (saved ? { ...saved, country: saved.country || defaultCountry } : { ...EMPTY, country: read.error ? defaultCountry : '' });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    try {
      const india = form.country === 'IN';
      const r = await call(putInvoicesBillingDetails, {
        body: { ...form, stateCode: india ? form.stateCode : '', gstin: india ? form.gstin.trim().toUpperCase() : '' },
      });
      setForm(r.billing);
      setMessage({ ok: true, text: 'Saved — the quote and your documents use these details.' });
      onSaved?.();
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    } finally {
      setSaving(false);
    }
  }

  const set = (k: keyof BillingDetails) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const india = form.country === 'IN';
  return (
    <section
      className="rounded-2xl border border-line bg-card px-4 py-4 text-sm"
      aria-labelledby="billing-heading"
      data-testid="billing-details"
    >
      <h2 id="billing-heading" className="font-semibold text-white">
        Billing details
      </h2>
      <p className="mt-1 text-muted">Where you are decides the tax on your quote. A registered business in India adds its GSTIN.</p>
      <form className="mt-3 flex flex-col gap-3" onSubmit={save}>
        <label className="flex flex-col gap-1.5">
          <span className="text-ink">Country</span>
          <select className={selectClass} value={form.country} onChange={set('country')} name="country" autoComplete="country">
            {COUNTRIES.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        {india && (
          <label className="flex flex-col gap-1.5">
            <span className="text-ink">State or union territory</span>
            <select className={selectClass} value={form.stateCode} onChange={set('stateCode')} name="stateCode" required>
              <option value="">Choose your state</option>
              {INDIAN_STATES.map((st) => (
                <option key={st.code} value={st.code}>
                  {st.name} ({st.code})
                </option>
              ))}
            </select>
          </label>
        )}
        {india && (
          <TextField
            label="GSTIN (optional, registered businesses)"
            value={form.gstin}
            onChange={set('gstin')}
            maxLength={15}
            autoComplete="off"
            spellCheck={false}
            name="gstin"
          />
        )}
        <TextField
          label="Billing name"
          value={form.billingName}
          onChange={set('billingName')}
          maxLength={120}
          autoComplete="organization"
        />
        <TextAreaField
          label="Billing address"
          value={form.billingAddress}
          onChange={set('billingAddress')}
          maxLength={500}
          rows={3}
          autoComplete="street-address"
        />
        {!india && (
          <TextField
            label="Tax id (VAT or other, optional)"
            value={form.taxId}
            onChange={set('taxId')}
            maxLength={20}
            autoComplete="off"
            spellCheck={false}
          />
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="secondary" disabled={saving}>
            Save billing details
          </Button>
          {message && (
            <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'text-muted' : 'text-danger'}>
              {message.text}
            </p>
          )}
        </div>
      </form>
    </section>
  );
}
