import { useState, type FormEvent } from 'react';
import type { CashbackEntry } from '../../../contract/admin-cashback.ts';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/text-field.tsx';
import { Badge, Card, ErrorText, Loadable, Notice, PageHeader, Table, td } from '../../components/back-office/admin-ui.tsx';
import { formatMinor, formatWhen } from '../../components/back-office/format.ts';
import { Email } from '../../components/back-office/person.tsx';
import { runOperation, useOperation } from '../../lib/use-operation.ts';
import { getAdminCashback, postAdminCashbackPaid } from '../../../contract/admin-cashback.ts';

const sums = (list: { currency: string; amount: number }[]) =>
  list.length ? list.map((s) => formatMinor(s.amount, s.currency)).join(' · ') : '0';

export default function CashbackPage() {
  const { data, error, loading, reload } = useOperation(getAdminCashback, {});
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  async function pay(entry: CashbackEntry, reference: string) {
    const { error: err } = await runOperation(postAdminCashbackPaid, { params: { id: entry.id }, body: { payoutReference: reference } });
    setActionError(err);
    setNotice(err ? null : `${formatMinor(entry.amount, entry.currency)} marked paid.`);
    if (!err) await reload();
  }

  return (
    <>
      <PageHeader title="Referral cashback" />
      {notice && <Notice>{notice}</Notice>}
      {actionError && <ErrorText>{actionError}</ErrorText>}
      <Loadable loading={loading && !data} error={error}>
        {data && data.referrers.length === 0 && <p className="text-muted">No referral cashback yet.</p>}
        <div className="mt-4 flex flex-col gap-6">
          {data?.referrers.map((r) => (
            <Card key={r.userId} title={r.name ? `${r.name} · ${r.email}` : r.email}>
              <dl className="mb-4 grid grid-cols-3 gap-3 text-sm">
                <div>
                  <dt className="text-muted">Pending</dt>
                  <dd>{sums(r.pending)}</dd>
                </div>
                <div>
                  <dt className="text-muted">Earned, to pay</dt>
                  <dd className="font-semibold text-white">{sums(r.earned)}</dd>
                </div>
                <div>
                  <dt className="text-muted">Paid</dt>
                  <dd>{sums(r.paid)}</dd>
                </div>
              </dl>
              <Table label={`Cashback of ${r.email}`} head={['Order', 'Buyer', 'Amount', 'State', 'Payout']}>
                {r.entries.map((e) => (
                  <tr key={e.id}>
                    <td className={`${td} font-mono`}>{e.orderId}</td>
                    <td className={td}>
                      <Email value={e.buyerEmail} />
                    </td>
                    <td className={`${td} whitespace-nowrap`}>{formatMinor(e.amount, e.currency)}</td>
                    <td className={td}>
                      <Badge tone={e.state === 'paid' ? 'good' : e.state === 'earned' ? 'warn' : 'muted'}>{e.state}</Badge>
                    </td>
                    <td className={td}>
                      {e.state === 'earned' ? (
                        <PayForm entry={e} onPay={pay} />
                      ) : e.state === 'paid' ? (
                        <span className="text-xs">
                          {e.payoutReference} · {formatWhen(e.paidAt)}
                        </span>
                      ) : (
                        <span className="text-xs text-muted">Waits for full payment</span>
                      )}
                    </td>
                  </tr>
                ))}
              </Table>
            </Card>
          ))}
        </div>
      </Loadable>
    </>
  );
}

function PayForm({ entry, onPay }: { entry: CashbackEntry; onPay(e: CashbackEntry, ref: string): Promise<void> }) {
  const [ref, setRef] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onPay(entry, ref.trim());
  };
  return (
    <form onSubmit={submit} className="flex min-w-56 gap-2">
      <label htmlFor={`ref-${entry.id}`} className="sr-only">
        Payout reference for {entry.orderId}
      </label>
      <input
        id={`ref-${entry.id}`}
        className={`${inputClass} py-1.5`}
        placeholder="Payout reference"
        required
        maxLength={200}
        value={ref}
        onChange={(e) => setRef(e.target.value)}
      />
      <Button type="submit" className="px-3 py-1.5" disabled={!ref.trim()}>
        Mark paid
      </Button>
    </form>
  );
}
