import { useState, type FormEvent } from 'react';
import type { AdminCoupon, CreateCouponBody } from '../../../contract/admin-coupons.ts';
import { isValidWindow } from '../../../domain/admin.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ErrorText } from '../../components/back-office/admin-ui.tsx';

// Validity is entered and shown in UTC, like every date of the site (spec §2 date format).
export const toUtcInput = (iso: string | null) => (iso ? iso.slice(0, 16) : '');
const fromUtcInput = (v: string) => (v ? `${v}:00Z` : null);

interface Props {
  initial?: AdminCoupon;
  submitLabel: string;
  onSubmit(body: CreateCouponBody): Promise<string | null>;
  onCancel?(): void;
}

/** Create or edit a promo coupon; the same rules as the server, so most mistakes show at once. */
export function CouponForm({ initial, submitLabel, onSubmit, onCancel }: Props) {
  const [code, setCode] = useState(initial?.code ?? '');
  const [percent, setPercent] = useState(initial ? String(initial.percent) : '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [from, setFrom] = useState(toUtcInput(initial?.validFrom ?? null));
  const [until, setUntil] = useState(toUtcInput(initial?.validUntil ?? null));
  const [maxUses, setMaxUses] = useState(initial?.maxUses ? String(initial.maxUses) : '');
  // Empty = no per-customer limit; a new coupon starts at one use per customer.
  const [perCustomer, setPerCustomer] = useState(initial ? (initial.maxUsesPerCustomer ? String(initial.maxUsesPerCustomer) : '') : '1');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pct = Number(percent);
  const percentError =
    percent !== '' && (!Number.isInteger(pct) || pct < 1 || pct > 99) ? 'Percent must be a whole number from 1 to 99.' : null;
  const windowError = !isValidWindow(fromUtcInput(from), fromUtcInput(until)) ? 'The end must be after the start.' : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (percentError || windowError) return;
    setBusy(true);
    const err = await onSubmit({
      code: code.trim().toUpperCase(),
      percent: pct,
      description: description.trim() || null,
      validFrom: fromUtcInput(from),
      validUntil: fromUtcInput(until),
      maxUses: maxUses ? Number(maxUses) : null,
      maxUsesPerCustomer: perCustomer ? Number(perCustomer) : null,
    });
    setBusy(false);
    setError(err);
  }

  return (
    <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2" aria-label={initial ? `Edit ${initial.code}` : 'New coupon'}>
      <TextField
        label="Code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        required
        disabled={Boolean(initial)}
        pattern="[A-Za-z0-9_\-]{3,40}"
        title="3 to 40 letters, digits, - or _"
        hint={initial ? 'The code cannot change once created.' : '3 to 40 letters, digits, - or _'}
      />
      <TextField
        label="Percent off"
        type="number"
        min={1}
        max={99}
        step={1}
        value={percent}
        onChange={(e) => setPercent(e.target.value)}
        required
        error={percentError}
      />
      <TextField label="Description (optional)" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
      <TextField label="Max uses (optional)" type="number" min={1} step={1} value={maxUses} onChange={(e) => setMaxUses(e.target.value)} />
      <TextField
        label="Uses per customer"
        type="number"
        min={1}
        max={1000}
        step={1}
        value={perCustomer}
        onChange={(e) => setPerCustomer(e.target.value)}
        hint="Empty: no limit per customer."
      />
      <TextField label="Valid from (UTC, optional)" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
      <TextField
        label="Valid until (UTC, optional)"
        type="datetime-local"
        value={until}
        onChange={(e) => setUntil(e.target.value)}
        error={windowError}
      />
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <Button type="submit" disabled={busy || Boolean(percentError || windowError)}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
        {error && <ErrorText>{error}</ErrorText>}
      </div>
    </form>
  );
}
