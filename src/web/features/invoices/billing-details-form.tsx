import { useEffect, useState, type FormEvent } from 'react';
import type { BillingDetails } from '../../../contract/invoices.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { TextAreaField, TextField } from '../../components/ui/text-field.tsx';
import { Button } from '../../components/ui/button.tsx';

/**
 * Optional billing name, address and tax id (GSTIN) printed on the customer's next invoices
 *. Folded away: most customers pay without it and the profile's name is used.
 */
export function BillingDetailsForm() {
  const [form, setForm] = useState<BillingDetails>({
    billingName: '',
    billingAddress: '',
    taxId: '',
  });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    api<{ billing: BillingDetails }>('GET', 'invoices/billing-details')
      .then((r) => setForm(r.billing))
      .catch(() => {});
  }, []);

  async function save(e: FormEvent) {
    e.preventDefault();
    setSaving(true);
    try {
      const r = await api<{ billing: BillingDetails }>('PUT', 'invoices/billing-details', form);
      setForm(r.billing);
      setMessage({
        ok: true,
        text: 'Saved — your invoice will show these details.',
      });
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    } finally {
      setSaving(false);
    }
  }

  const set = (k: keyof BillingDetails) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  return (
    <details className="rounded-2xl border border-line bg-card px-4 py-3 text-sm">
      <summary className="cursor-pointer font-medium text-ink">Invoice details (optional): company name, address, GSTIN</summary>
      <form className="mt-3 flex flex-col gap-3" onSubmit={save}>
        <TextField label="Billing name" value={form.billingName} onChange={set('billingName')} maxLength={120} autoComplete="organization" />
        <TextAreaField
          label="Billing address"
          value={form.billingAddress}
          onChange={set('billingAddress')}
          maxLength={500}
          rows={3}
          autoComplete="street-address"
        />
        <TextField label="Tax id (GSTIN, VAT)" value={form.taxId} onChange={set('taxId')} maxLength={20} autoComplete="off" spellCheck={false} />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="secondary" disabled={saving}>
            Save invoice details
          </Button>
          {message && (
            <p role="status" className={message.ok ? 'text-muted' : 'text-danger'}>
              {message.text}
            </p>
          )}
        </div>
      </form>
    </details>
  );
}
