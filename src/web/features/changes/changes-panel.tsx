import { useId, useState } from 'react';
import {
  getAddons,
  getOrdersChanges,
  postOrdersChanges,
  postOrdersChangesDecline,
  postOrdersChangesWithdraw,
  type OrderChange,
  type PublicAddonsResponse,
} from '../../../contract/changes.ts';
import { postPaymentCreateOrder } from '../../../contract/payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { openCheckout, verifyPayment } from '../../lib/checkout.ts';
import { STATE_LABEL, changeLine, gstSuffix, movedDays, movedText, plusGstFor, wholeMoney } from './change-text.ts';
import { formatMoney } from '../../../domain/money.ts';

type Money = { symbol: string; minorDigits: number; currency: string };

/**
 * The order's changes on its page (docs/decisions/250-change-requests.md): each change with its
 * price and days, "I agree to this change" + Pay for a quote, Decline; a form to ask for one; the
 * active add-ons in the order's currency with "Request".
 */
export function ChangesPanel({
  orderId,
  money,
  delivered,
  orderTotal,
  onPaid,
}: {
  orderId: string;
  money: Money;
  delivered: boolean;
  /** The order's total now (minor units), from its account: the statement's `charged`. */
  orderTotal?: number;
  onPaid(): void;
}) {
  const read = useOperation(getOrdersChanges, { params: { orderId } });
  const changes: OrderChange[] | null = read.data?.changes ?? null;
  // No add-ons on a failed read: the panel still shows the changes.
  const addons: PublicAddonsResponse | null = useOperation(getAddons, { query: { currency: money.currency } }).data;
  const [actionError, setError] = useState<string | null>(null);
  const error = actionError ?? read.error;
  const load = read.reload;

  async function run(work: () => Promise<unknown>) {
    setError(null);
    try {
      await work();
      await load();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const accepted = (changes ?? []).filter((c) => c.state === 'accepted');
  const priced = { ...money, plusGst: plusGstFor(money.currency) };
  return (
    <section className="rounded-2xl border border-line bg-card p-6" aria-labelledby="changes-heading" data-testid="changes-panel">
      <h2 id="changes-heading" className="text-lg font-semibold text-white">
        Changes
      </h2>
      {accepted.length > 0 && <ChangesTotal accepted={accepted} money={priced} orderTotal={orderTotal} />}
      {movedDays(changes ?? []) > 0 && (
        <p className="mt-1 text-sm text-ink" data-testid="changes-moved">
          {movedText(movedDays(changes ?? []))}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-3 rounded-xl border border-danger/40 bg-danger/10 px-4 py-3 text-sm text-danger">
          {error}
        </p>
      )}
      {changes === null ? null : changes.length === 0 ? (
        <p className="mt-3 text-sm text-muted">No changes yet. Need something more? Ask below or pick an extra.</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-3">
          {changes.map((c) => (
            <ChangeItem key={c.id} change={c} money={priced} orderId={orderId} run={run} onPaid={onPaid} />
          ))}
        </ul>
      )}
      {!delivered && (
        <>
          <AskForm
            onAsk={(title, description) => run(() => call(postOrdersChanges, { params: { orderId }, body: { title, description } }))}
          />
          {addons && addons.addons.length > 0 && (
            <div className="mt-6">
              <h3 className="text-sm font-semibold text-white">Optional extras</h3>
              <ul className="mt-2 flex flex-col gap-2">
                {addons.addons.map((a) => (
                  <li
                    key={a.id}
                    className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line p-3"
                    data-testid="addon"
                  >
                    <div className="min-w-0">
                      <p className="font-medium text-white">{a.name}</p>
                      <p className="text-sm text-muted">
                        {wholeMoney(a.amount, addons)}
                        {gstSuffix(priced)}
                        {a.extraDays > 0 ? ` · delivery moves by ${a.extraDays} days` : ''}
                      </p>
                    </div>
                    <Button
                      variant="secondary"
                      aria-label={`Request ${a.name}`}
                      onClick={() =>
                        run(() =>
                          call(postOrdersChanges, {
                            params: { orderId },
                            body: { title: a.name, description: a.description, addonId: a.id },
                          }),
                        )
                      }
                    >
                      Request
                    </Button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/**
 * "Changes accepted: 2 · delivery moved by 5 days" and the order's total now, as its account says
 * (tax and changes included: docs/decisions/320-order-ledger.md); the browser adds no amounts.
 */
function ChangesTotal({
  accepted,
  money,
  orderTotal,
}: {
  accepted: OrderChange[];
  money: Money & { plusGst: boolean };
  orderTotal: number | undefined;
}) {
  const days = accepted.reduce((s, c) => s + c.extraDays, 0);
  return (
    <div className="mt-2 text-sm text-ink" data-testid="changes-total">
      <p>
        Changes accepted: {accepted.length}
        {days > 0 && ` · delivery moved by ${days} day${days === 1 ? '' : 's'}`}
      </p>
      {orderTotal !== undefined && (
        <p className="mt-1" data-testid="changes-new-total">
          New total: <strong className="text-white">{formatMoney(orderTotal, money)}</strong>{' '}
          <span className="text-muted">
            (the order and its paid changes{money.plusGst ? ', GST included' : ''}; every line is on the Payments tab)
          </span>
        </p>
      )}
    </div>
  );
}

function ChangeItem({
  change: c,
  money,
  orderId,
  run,
  onPaid,
}: {
  change: OrderChange;
  money: Money & { plusGst: boolean };
  orderId: string;
  run(work: () => Promise<unknown>): Promise<void>;
  onPaid(): void;
}) {
  const [agree, setAgree] = useState(false);
  const [busy, setBusy] = useState(false);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const id = useId();
  async function pay() {
    setBusy(true);
    await run(async () => {
      const order = await call(postPaymentCreateOrder, {
        body: { kind: 'change', orderId, changeId: c.id, acceptTerms: true },
      });
      const result = await openCheckout(order);
      if (result) {
        await verifyPayment(result);
        onPaid();
      }
    });
    setBusy(false);
  }
  return (
    <li className="rounded-xl border border-line p-4" data-testid="change" data-state={c.state}>
      <p className="break-words font-medium text-white">{changeLine(c, money)}</p>
      <p className="mt-1 text-xs text-muted">{STATE_LABEL[c.state]}</p>
      {c.description && <p className="mt-2 whitespace-pre-line break-words text-sm text-ink">{c.description}</p>}
      {c.note && <p className="mt-2 whitespace-pre-line break-words text-sm text-ink">Note from us: {c.note}</p>}
      {c.declineReason && <p className="mt-2 text-sm text-muted">Your reason: {c.declineReason}</p>}
      {c.invoiceId && <p className="mt-2 text-sm text-muted">Its invoice is listed under Invoices.</p>}
      {c.state === 'quoted' && c.amount !== null && (
        <div className="mt-3 flex flex-col gap-3">
          <label htmlFor={`${id}-agree`} className="flex items-start gap-2 text-sm text-ink">
            <input
              id={`${id}-agree`}
              type="checkbox"
              className="mt-1 h-4 w-4"
              checked={agree}
              onChange={(e) => setAgree(e.target.checked)}
            />
            I agree to this change
          </label>
          <div className="flex flex-wrap gap-3">
            <Button disabled={!agree || busy} onClick={() => void pay()}>
              Accept and pay {wholeMoney(c.amount, money)}
              {gstSuffix(money)}
            </Button>
            <Button variant="secondary" disabled={busy} aria-expanded={declining} onClick={() => setDeclining((d) => !d)}>
              Decline
            </Button>
          </div>
          {declining && (
            <form
              className="flex flex-col gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                void run(() =>
                  call(postOrdersChangesDecline, {
                    params: { orderId, changeId: c.id },
                    body: reason.trim() ? { reason } : {},
                  }),
                );
              }}
            >
              <label htmlFor={`${id}-reason`} className="text-sm text-ink">
                Why not? (optional)
              </label>
              <textarea
                id={`${id}-reason`}
                rows={2}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                className="rounded-xl border border-line bg-field px-3 py-2 text-ink"
              />
              <div>
                <Button type="submit" variant="secondary" disabled={busy}>
                  Decline this quote
                </Button>
              </div>
            </form>
          )}
        </div>
      )}
      {c.state === 'requested' && c.createdBy === 'customer' && (
        <Button
          variant="ghost"
          className="mt-3"
          onClick={() => void run(() => call(postOrdersChangesWithdraw, { params: { orderId, changeId: c.id } }))}
        >
          Withdraw
        </Button>
      )}
    </li>
  );
}

function AskForm({ onAsk }: { onAsk(title: string, description: string): Promise<void> }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const id = useId();
  return (
    <form
      className="mt-6 flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (!title.trim()) return;
        void onAsk(title, description).then(() => {
          setTitle('');
          setDescription('');
        });
      }}
    >
      <h3 className="text-sm font-semibold text-white">Ask for a change</h3>
      <label htmlFor={`${id}-title`} className="text-sm text-ink">
        What do you need?
      </label>
      <input
        id={`${id}-title`}
        value={title}
        maxLength={120}
        onChange={(e) => setTitle(e.target.value)}
        className="rounded-xl border border-line bg-field px-3 py-2 text-ink"
      />
      <label htmlFor={`${id}-desc`} className="text-sm text-ink">
        Details (optional)
      </label>
      <textarea
        id={`${id}-desc`}
        value={description}
        maxLength={4000}
        rows={3}
        onChange={(e) => setDescription(e.target.value)}
        className="rounded-xl border border-line bg-field px-3 py-2 text-ink"
      />
      <div>
        <Button type="submit" variant="secondary" disabled={!title.trim()}>
          Ask for a quote
        </Button>
      </div>
    </form>
  );
}
