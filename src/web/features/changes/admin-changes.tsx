import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { getAdminOrdersChanges, postAdminOrdersChanges, postAdminOrdersChangesQuote, type OrderChange } from '../../../contract/changes.ts';
import type { OperationInput } from '../../../contract/operation.ts';
import { findCurrency } from '../../../domain/currencies.ts';
import { toMinor } from '../../../domain/money.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, ErrorText } from '../../components/back-office/admin-ui.tsx';
import { runOperation, useOperation } from '../../lib/use-operation.ts';
import { STATE_LABEL, changeLine, movedDays, movedText, plusGstFor } from './change-text.ts';
import { DaysField, Field, TextArea } from './form-fields.tsx';

/** Major units typed by the founder → minor units of the order's currency (null when not a number). */
function minorOf(text: string, currency: string): number | null {
  const n = Number(text.replace(/,/g, ''));
  if (!text.trim() || !Number.isFinite(n)) return null;
  return toMinor(n, findCurrency(currency) ?? { minorDigits: 2 });
}

/** The order's changes in the back office (docs/decisions/250-change-requests.md): quote, raise, include. */
export function AdminChanges({
  orderId,
  currency,
  cancelled = false,
}: {
  orderId: string;
  currency: string;
  /** A cancelled order takes no more work (docs/decisions/321-cancel-and-refund.md): listed, no forms. */
  cancelled?: boolean;
}) {
  const { data, error, reload } = useOperation(getAdminOrdersChanges, { params: { orderId } });
  const [actionError, setActionError] = useState<string | null>(null);
  // "Quote this as a change" on a support request brings its title and description here.
  const draft = (useLocation().state as { changeDraft?: ChangeDraft } | null)?.changeDraft ?? null;
  const money = {
    ...(findCurrency(currency) ?? { symbol: `${currency} `, minorDigits: 2 }),
    plusGst: plusGstFor(currency),
  };
  const act = async (work: Promise<{ error: string | null }>) => {
    const r = await work;
    setActionError(r.error);
    if (!r.error) await reload();
    return !r.error;
  };
  return (
    <Card title="Changes">
      <div data-testid="admin-changes" className="flex flex-col gap-4">
        {error && <ErrorText>{error}</ErrorText>}
        {actionError && <ErrorText>{actionError}</ErrorText>}
        {data && movedDays(data.changes) > 0 && (
          <p className="text-sm text-ink" data-testid="admin-changes-moved">
            {movedText(movedDays(data.changes))}
          </p>
        )}
        {data && data.changes.length === 0 && <p className="text-sm text-muted">No change requests on this order.</p>}
        <ul className="flex flex-col gap-3">
          {data?.changes.map((c) => (
            <li key={c.id} className="rounded-xl border border-line p-3" data-testid="admin-change" data-state={c.state}>
              <p className="break-words font-medium text-white">{changeLine(c, money)}</p>
              <p className="text-xs text-muted">
                {c.state === 'quoted'
                  ? 'Waiting for the customer'
                  : c.state === 'requested'
                    ? 'Waiting for your quote'
                    : STATE_LABEL[c.state]}{' '}
                · asked by {c.createdBy === 'customer' ? 'the customer' : 'us'}
              </p>
              {c.description && <p className="mt-1 whitespace-pre-line break-words text-sm text-ink">{c.description}</p>}
              {c.declineReason && <p className="mt-1 text-sm text-muted">Declined: {c.declineReason}</p>}
              {!cancelled && (c.state === 'requested' || c.state === 'quoted') && (
                <QuoteForm
                  currency={currency}
                  change={c}
                  onQuote={(body) => act(runOperation(postAdminOrdersChangesQuote, { params: { orderId, changeId: c.id }, body }))}
                />
              )}
            </li>
          ))}
        </ul>
        {!cancelled && (
          <RaiseForm
            currency={currency}
            draft={draft}
            onRaise={(body) => act(runOperation(postAdminOrdersChanges, { params: { orderId }, body }))}
          />
        )}
      </div>
    </Card>
  );
}

function QuoteForm({
  currency,
  change,
  onQuote,
}: {
  currency: string;
  change: OrderChange;
  onQuote(body: OperationInput<typeof postAdminOrdersChangesQuote>['body']): Promise<boolean>;
}) {
  const [amount, setAmount] = useState('');
  const [days, setDays] = useState(String(change.extraDays));
  const [note, setNote] = useState(change.note ?? '');
  return (
    <form
      className="mt-3 grid gap-2 sm:grid-cols-[1fr_1fr_2fr_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        void onQuote({
          // Not a number: sent as null (JSON has no NaN), so the server's 400 names the amount field.
          amount: minorOf(amount, currency) ?? Number.NaN,
          extraDays: Number(days),
          ...(note.trim() ? { note } : {}),
        });
      }}
    >
      <Field label={`Amount (${currency}, before GST)`} inputMode="decimal" value={amount} onChange={setAmount} />
      <DaysField value={days} onChange={setDays} />
      <Field label="Note (optional)" maxLength={1000} value={note} onChange={setNote} />
      <Button type="submit">{change.state === 'quoted' ? 'Update quote' : 'Send quote'}</Button>
    </form>
  );
}

/** What a support request of category "change" brings to the form (admin-support-page.tsx). */
export interface ChangeDraft {
  title: string;
  description: string;
}

function RaiseForm({
  currency,
  draft,
  onRaise,
}: {
  currency: string;
  draft: ChangeDraft | null;
  onRaise(body: OperationInput<typeof postAdminOrdersChanges>['body']): Promise<boolean>;
}) {
  const id = useId();
  const [title, setTitle] = useState(draft?.title ?? '');
  const [description, setDescription] = useState(draft?.description ?? '');
  const [amount, setAmount] = useState('');
  const [days, setDays] = useState('0');
  const [included, setIncluded] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // Opened from a support request: the form is what the founder came for.
  useEffect(() => {
    if (!draft) return;
    form.current?.scrollIntoView({ block: 'center' });
    form.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [draft]);
  return (
    <form
      ref={form}
      className="flex flex-col gap-2 border-t border-line pt-4"
      data-testid="raise-change"
      onSubmit={(e) => {
        e.preventDefault();
        const minor = minorOf(amount, currency);
        void onRaise({
          title,
          ...(description.trim() ? { description } : {}),
          extraDays: Number(days),
          ...(included ? { included: true } : minor !== null ? { amount: minor } : {}),
        }).then((ok) => {
          if (ok) {
            setTitle('');
            setDescription('');
            setAmount('');
            setDays('0');
            setIncluded(false);
          }
        });
      }}
    >
      <h3 className="text-sm font-semibold text-white">Raise a change</h3>
      <Field label="Title" maxLength={120} value={title} onChange={setTitle} />
      <TextArea label="Description (optional)" value={description} onChange={setDescription} />
      <div className="grid gap-2 sm:grid-cols-2">
        <Field
          label={`Amount (${currency}, before GST; empty to quote later)`}
          inputMode="decimal"
          disabled={included}
          value={amount}
          onChange={setAmount}
        />
        <DaysField value={days} onChange={setDays} />
      </div>
      <label className="flex items-center gap-2 text-sm text-ink" htmlFor={`${id}-i`}>
        <input id={`${id}-i`} type="checkbox" className="h-4 w-4" checked={included} onChange={(e) => setIncluded(e.target.checked)} />
        Included at no charge
      </label>
      <div>
        <Button type="submit" variant="secondary" disabled={!title.trim()}>
          Raise change
        </Button>
      </div>
    </form>
  );
}
