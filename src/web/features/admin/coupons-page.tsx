import { useState } from 'react';
import type { AdminCoupon } from '../../../contract/admin-coupons.ts';
import type { CouponState } from '../../../domain/admin.ts';
import { Button } from '../../components/ui/button.tsx';
import { Badge, Card, ErrorText, Loadable, Notice, PageHeader, Table, td, wrapCell } from '../../components/back-office/admin-ui.tsx';
import { CouponForm } from './coupon-form.tsx';
import { formatWhen } from '../../components/back-office/format.ts';
import { runOperation, useOperation } from '../../lib/use-operation.ts';
import {
  getAdminCoupons,
  patchAdminCouponsById,
  postAdminCoupons,
  postAdminCouponsDeactivate,
  putAdminPromotion,
} from '../../../contract/admin-coupons.ts';

export default function CouponsPage() {
  const { data, error, loading, reload } = useOperation(getAdminCoupons, {});
  const [editing, setEditing] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  async function run(p: Promise<{ error: string | null }>, done: string) {
    const { error: err } = await p;
    setActionError(err);
    setNotice(err ? null : done);
    if (!err) await reload();
  }

  return (
    <>
      <PageHeader title="Coupons and promotion" />
      <div className="flex flex-col gap-6">
        <Card title="New promo coupon">
          <CouponForm
            key={formKey}
            submitLabel="Create coupon"
            onSubmit={async (body) => {
              const { error: err } = await runOperation(postAdminCoupons, { body });
              if (!err) {
                setNotice(`Coupon ${body.code} created.`);
                setFormKey((k) => k + 1);
                await reload();
              }
              return err;
            }}
          />
        </Card>
        {notice && <Notice>{notice}</Notice>}
        {actionError && <ErrorText>{actionError}</ErrorText>}
        <Loadable loading={loading && !data} error={error}>
          {data && (
            <>
              <Card title="Promo coupons">
                <p className="mb-3 text-sm text-muted">
                  The featured coupon drives the banner, the popup and the countdown. Now featured:{' '}
                  <strong className="text-white">{data.featuredCode ?? 'none'}</strong>
                </p>
                <Table label="Promo coupons" head={['Code', 'Percent', 'Valid', 'Uses', 'Status', 'Actions']}>
                  {data.promos.map((c) => (
                    <PromoRow
                      key={c.id}
                      coupon={c}
                      isEditing={editing === c.id}
                      onEdit={() => setEditing(editing === c.id ? null : c.id)}
                      onFeature={() =>
                        run(runOperation(putAdminPromotion, { body: { couponCode: c.code } }), `${c.code} now drives the banner.`)
                      }
                      onDeactivate={() => run(runOperation(postAdminCouponsDeactivate, { params: { id: c.id } }), `${c.code} deactivated.`)}
                      onActivate={() =>
                        run(runOperation(patchAdminCouponsById, { params: { id: c.id }, body: { active: true } }), `${c.code} activated.`)
                      }
                      onSave={async (body) => {
                        const { code: _code, ...changes } = body;
                        const { error: err } = await runOperation(patchAdminCouponsById, { params: { id: c.id }, body: changes });
                        if (!err) {
                          setEditing(null);
                          setNotice(`${c.code} saved.`);
                          await reload();
                        }
                        return err;
                      }}
                    />
                  ))}
                </Table>
              </Card>
              <Card title="Referral codes">
                <p className="mb-3 text-sm text-muted">Read-only: every customer gets one at sign-up.</p>
                {data.referrals.length === 0 ? (
                  <p className="text-muted">No referral codes yet.</p>
                ) : (
                  <Table label="Referral codes" head={['Code', 'Owner', 'Percent', 'Uses', 'Status']}>
                    {data.referrals.map((r) => (
                      <tr key={r.id}>
                        <td className={`${td} font-mono text-white`}>{r.code}</td>
                        <td className={`${td} ${wrapCell}`}>{r.ownerName ? `${r.ownerName} · ${r.ownerEmail}` : r.ownerEmail}</td>
                        <td className={td}>{r.percent}%</td>
                        <td className={td}>{r.uses}</td>
                        <td className={td}>{r.active ? <Badge tone="good">Active</Badge> : <Badge>Inactive</Badge>}</td>
                      </tr>
                    ))}
                  </Table>
                )}
              </Card>
            </>
          )}
        </Loadable>
      </div>
    </>
  );
}

/** One badge for the coupon's one state, computed by the server (decision 127). */
const STATE_BADGES: Record<CouponState, { label: string; tone: 'good' | 'warn' | 'muted' | 'accent' }> = {
  active: { label: 'Active', tone: 'good' },
  scheduled: { label: 'Scheduled', tone: 'accent' },
  expired: { label: 'Expired', tone: 'warn' },
  inactive: { label: 'Deactivated', tone: 'muted' },
  used_up: { label: 'Used up', tone: 'warn' },
};

function CouponStateBadge({ state }: { state: CouponState }) {
  const b = STATE_BADGES[state];
  return (
    <span data-testid="coupon-state">
      <Badge tone={b.tone}>{b.label}</Badge>
    </span>
  );
}

interface RowProps {
  coupon: AdminCoupon;
  isEditing: boolean;
  onEdit(): void;
  onFeature(): void;
  onDeactivate(): void;
  onActivate(): void;
  onSave: Parameters<typeof CouponForm>[0]['onSubmit'];
}

function PromoRow({ coupon: c, isEditing, onEdit, onFeature, onDeactivate, onActivate, onSave }: RowProps) {
  return (
    <>
      <tr data-testid={`coupon-${c.code}`}>
        <td className={td}>
          <span className="font-mono text-white">{c.code}</span>
          {c.description && <p className="mt-1 text-xs text-muted">{c.description}</p>}
        </td>
        <td className={td}>{c.percent}%</td>
        <td className={`${td} text-xs`}>
          <div>From: {formatWhen(c.validFrom)}</div>
          <div>Until: {formatWhen(c.validUntil)}</div>
        </td>
        <td className={td}>
          {c.redemptions}
          {c.maxUses ? ` / ${c.maxUses}` : ''}
        </td>
        <td className={`${td} space-x-1`}>
          <CouponStateBadge state={c.state} />
          {c.featured && <Badge tone="accent">Featured</Badge>}
        </td>
        <td className={`${td} whitespace-nowrap`}>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" className="px-3 py-1.5" onClick={onEdit} aria-expanded={isEditing}>
              Edit<span className="sr-only"> {c.code}</span>
            </Button>
            {c.active && !c.featured && (
              <Button variant="secondary" className="px-3 py-1.5" onClick={onFeature}>
                Feature<span className="sr-only"> {c.code}</span>
              </Button>
            )}
            {c.active && !c.featured && (
              <Button variant="secondary" className="px-3 py-1.5" onClick={onDeactivate}>
                Deactivate<span className="sr-only"> {c.code}</span>
              </Button>
            )}
            {!c.active && (
              <Button variant="secondary" className="px-3 py-1.5" onClick={onActivate}>
                Activate<span className="sr-only"> {c.code}</span>
              </Button>
            )}
          </div>
        </td>
      </tr>
      {isEditing && (
        <tr>
          <td colSpan={6} className="bg-field p-4">
            <CouponForm initial={c} submitLabel="Save changes" onSubmit={onSave} onCancel={onEdit} />
          </td>
        </tr>
      )}
    </>
  );
}
