import { useState } from 'react';
import type { AuditListResponse } from '../../../contract/admin.ts';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../../../domain/admin.ts';
import { inputClass } from '../../components/ui/text-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { Loadable, PageHeader, Pagination, Table, td } from './admin-ui.tsx';
import { formatWhen } from './format.ts';
import { useAdminData } from './use-admin-data.ts';

const show = (v: unknown) => (v === null || v === undefined ? '—' : JSON.stringify(v, null, 1));

export default function AuditPage() {
  const [action, setAction] = useState('');
  const [entity, setEntity] = useState('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const params = new URLSearchParams({ page: String(page) });
  if (action) params.set('action', action);
  if (entity) params.set('entity', entity);
  if (actor.trim()) params.set('actor', actor.trim());
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  const { data, error, loading } = useAdminData<AuditListResponse>(`audit?${params}`);
  const filter = <T,>(set: (v: T) => void) => (v: T) => {
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
        <TextField label="Admin e-mail" value={actor} maxLength={200} onChange={(e) => filter(setActor)(e.target.value)} />
        <TextField label="From (UTC)" type="date" value={from} onChange={(e) => filter(setFrom)(e.target.value)} />
        <TextField label="To (UTC)" type="date" value={to} onChange={(e) => filter(setTo)(e.target.value)} />
      </div>
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <>
            <Table label="Audit log" head={['When', 'Who', 'What', 'Object', 'Before', 'After']}>
              {data.items.map((e) => (
                <tr key={e.id}>
                  <td className={`${td} whitespace-nowrap`}>{formatWhen(e.at)}</td>
                  <td className={td}>{e.actorEmail}</td>
                  <td className={`${td} font-mono`}>{e.action}</td>
                  <td className={`${td} break-all`}>
                    {e.entity}
                    {e.entityId && <div className="font-mono text-xs text-muted">{e.entityId}</div>}
                  </td>
                  <td className={td}>
                    <pre className="max-w-xs whitespace-pre-wrap break-all text-xs text-muted">{show(e.before)}</pre>
                  </td>
                  <td className={td}>
                    <pre className="max-w-xs whitespace-pre-wrap break-all text-xs">{show(e.after)}</pre>
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
