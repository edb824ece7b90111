import { useState } from 'react';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../../../domain/admin.ts';
import { inputClass } from '../../components/ui/text-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { Loadable, PageHeader, Pagination, Table, td } from '../../components/back-office/admin-ui.tsx';
import { RoleBadge } from '../../components/back-office/person.tsx';
import { formatWhen } from '../../components/back-office/format.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminAudit } from '../../../contract/admin.ts';

const show = (v: unknown) => {
  if (v === null || v === undefined) return '—';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
};
const fields = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : v === null || v === undefined ? {} : { value: v };

/** Before → after, one line per field; unchanged fields are left out. */
function Change({ before, after }: { before: unknown; after: unknown }) {
  const b = fields(before);
  const a = fields(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]));
  if (keys.length === 0) return <span className="text-muted">—</span>;
  return (
    <dl className="flex min-w-[16rem] flex-col gap-1 text-xs">
      {keys.map((k) => (
        <div key={k} className="wrap-anywhere">
          <dt className="inline font-mono text-muted">{k}: </dt>
          <dd className="inline">
            {k in b && <span className="text-muted line-through decoration-muted/60">{show(b[k])}</span>}
            {k in b && k in a && <span aria-label="changed to"> → </span>}
            {k in a && <span className="text-ink">{show(a[k])}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export default function AuditPage() {
  const [action, setAction] = useState('');
  const [entity, setEntity] = useState('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const query = {
    page,
    action: AUDIT_ACTIONS.find((a) => a === action),
    entity: AUDIT_ENTITIES.find((e) => e === entity),
    actor: actor.trim() || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const { data, error, loading } = useOperation(getAdminAudit, { query });
  const filter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <>
      <PageHeader title="Audit log" />
      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <label className="flex flex-col gap-1.5 text-sm font-medium text-ink">
          Action
          <select className={inputClass} value={action} onChange={(e) => filter(setAction)(e.target.value)}>
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-ink">
          Object
          <select className={inputClass} value={entity} onChange={(e) => filter(setEntity)(e.target.value)}>
            <option value="">All objects</option>
            {AUDIT_ENTITIES.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <TextField label="Owner or staff e-mail" value={actor} maxLength={200} onChange={(e) => filter(setActor)(e.target.value)} />
        <TextField label="From (UTC)" type="date" value={from} onChange={(e) => filter(setFrom)(e.target.value)} />
        <TextField label="To (UTC)" type="date" value={to} onChange={(e) => filter(setTo)(e.target.value)} />
      </div>
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <>
            <Table label="Audit log" head={['When', 'Who', 'What', 'Object', 'Change']}>
              {data.items.map((e) => (
                <tr key={e.id}>
                  <td className={`${td} min-w-[9rem] text-xs`}>{formatWhen(e.at)}</td>
                  <td className={td} data-testid="audit-actor">
                    {e.actorEmail}
                    {/* Who did it, the owner or a staff member ( the audit log names who did what). */}
                    {e.actorRole && (
                      <div>
                        <RoleBadge role={e.actorRole} />
                      </div>
                    )}
                  </td>
                  <td className={`${td} font-mono`}>{e.action}</td>
                  <td className={`${td} break-all`}>
                    {e.entity}
                    {e.entityId && <div className="font-mono text-xs text-muted">{e.entityId}</div>}
                  </td>
                  <td className={td}>
                    <Change before={e.before} after={e.after} />
                  </td>
                </tr>
              ))}
            </Table>
            {data.items.length === 0 && <p className="mt-3 text-muted">Nothing recorded for these filters.</p>}
            <Pagination info={data.pageInfo} onPage={setPage} />
          </>
        )}
      </Loadable>
    </>
  );
}
