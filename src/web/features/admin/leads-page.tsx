import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Badge, ErrorText, Loadable, PageHeader, Pagination, Table, td } from '../../components/back-office/admin-ui.tsx';
import { downloadCsv } from '../../components/back-office/download-csv.ts';
import { formatWhen } from '../../components/back-office/format.ts';
import { CollapsibleText } from './collapsible-text.tsx';
import { useCanSee } from '../../components/back-office/owner-only.tsx';
import { DeletedPerson, isDeletedPerson } from '../../components/back-office/person.tsx';
import { runOperation, useOperation } from '../../lib/use-operation.ts';
import {
  getAdminContacts,
  getAdminContactsCsv,
  getAdminLeads,
  getAdminLeadsCsv,
  postAdminContactsHandled,
  postAdminLeadsHandled,
} from '../../../contract/admin-leads.ts';

type Status = 'new' | 'handled' | 'all';
type Kind = 'leads' | 'contacts';

function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: [T, string][];
  onChange(v: T): void;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-xl border border-line bg-card p-1">
      {options.map(([v, text]) => (
        <button
          key={v}
          type="button"
          aria-pressed={value === v}
          onClick={() => onChange(v)}
          className={`rounded-lg px-3 py-1.5 text-sm
          ${value === v ? 'bg-accent-strong font-semibold text-white' : 'text-muted hover:text-white'}`}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

export default function LeadsPage() {
  const [kind, setKind] = useState<Kind>('leads');
  const [status, setStatus] = useState<Status>('new');
  const [page, setPage] = useState(1);
  const [actionError, setActionError] = useState<string | null>(null);
  const query = { status, page };
  const leads = useOperation(getAdminLeads, kind === 'leads' ? { query } : null);
  const contacts = useOperation(getAdminContacts, kind === 'contacts' ? { query } : null);
  const current = kind === 'leads' ? leads : contacts;
  // Staff answer leads; a CSV of people's data leaving the app is the owner's decision.
  const canExport = useCanSee('exports');

  async function handle(id: string) {
    const { error } = await runOperation(kind === 'leads' ? postAdminLeadsHandled : postAdminContactsHandled, { params: { id } });
    setActionError(error);
    await current.reload();
  }

  async function exportCsv() {
    setActionError(await downloadCsv(kind === 'leads' ? getAdminLeadsCsv : getAdminContactsCsv, { query: { status } }, `${kind}.csv`));
  }

  const handledCell = (id: string, handledAt: string | null) =>
    handledAt ? (
      <Badge tone="good">Handled</Badge>
    ) : (
      <Button variant="secondary" className="px-3 py-1.5" onClick={() => handle(id)}>
        Mark handled
      </Button>
    );

  return (
    <>
      <PageHeader title="Leads and contact messages">
        {canExport && (
          <Button variant="secondary" onClick={exportCsv}>
            Export CSV
          </Button>
        )}
      </PageHeader>
      <div className="mb-4 flex flex-wrap gap-3">
        <Segmented
          label="What"
          value={kind}
          options={[
            ['leads', 'Leads'],
            ['contacts', 'Contact messages'],
          ]}
          onChange={(v) => {
            setKind(v);
            setPage(1);
          }}
        />
        <Segmented
          label="Status"
          value={status}
          options={[
            ['new', 'New'],
            ['handled', 'Handled'],
            ['all', 'All'],
          ]}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
        />
      </div>
      {actionError && <ErrorText>{actionError}</ErrorText>}
      <Loadable loading={current.loading && !current.data} error={current.error}>
        {kind === 'leads' && leads.data && (
          <>
            <Table label="Leads" head={['Received', 'Contact', 'Page', 'Status']}>
              {leads.data.items.map((l) => (
                <tr key={l.id}>
                  <td className={`${td} whitespace-nowrap`}>
                    {formatWhen(l.createdAt)}
                    {l.source && (
                      <div className="max-w-48 truncate text-xs text-muted" title={l.source}>
                        Source: {l.source}
                      </div>
                    )}
                  </td>
                  <td className={`${td} break-all`}>
                    {l.kind === 'email' && isDeletedPerson(l.email) ? (
                      <DeletedPerson />
                    ) : l.kind === 'email' ? (
                      <a href={`mailto:${l.email}`} className="text-accent-soft hover:underline">
                        {l.email}
                      </a>
                    ) : (
                      <a href={`tel:${(l.phone ?? '').replace(/[^\d+]/g, '')}`} className="text-accent-soft hover:underline">
                        {l.phone}
                      </a>
                    )}
                  </td>
                  <td className={`${td} break-all text-muted`}>{l.page ?? '—'}</td>
                  <td className={td}>{handledCell(l.id, l.handledAt)}</td>
                </tr>
              ))}
            </Table>
            {leads.data.items.length === 0 && <p className="mt-3 text-muted">Nothing here.</p>}
            <Pagination info={leads.data.pageInfo} onPage={setPage} />
          </>
        )}
        {kind === 'contacts' && contacts.data && (
          <>
            <Table label="Contact messages" head={['Received', 'From', 'Message', 'Status']}>
              {contacts.data.items.map((c) => (
                <tr key={c.id}>
                  <td className={`${td} whitespace-nowrap`}>
                    {formatWhen(c.createdAt)}
                    {c.source && (
                      <div className="max-w-48 truncate text-xs text-muted" title={c.source}>
                        Source: {c.source}
                      </div>
                    )}
                  </td>
                  <td className={`${td} break-all`}>
                    <div className="text-white">{c.name}</div>
                    {isDeletedPerson(c.email) ? (
                      <DeletedPerson />
                    ) : (
                      <a href={`mailto:${c.email}`} className="text-accent-soft hover:underline">
                        {c.email}
                      </a>
                    )}
                    <div className="text-muted">
                      {c.phoneCode} {c.phoneNumber}
                    </div>
                    {c.address && <div className="whitespace-pre-wrap text-muted">{c.address}</div>}
                  </td>
                  <td className={`${td} max-w-md`}>
                    {c.message ? <CollapsibleText text={c.message} /> : <span className="text-muted">(no message)</span>}
                  </td>
                  <td className={td}>{handledCell(c.id, c.handledAt)}</td>
                </tr>
              ))}
            </Table>
            {contacts.data.items.length === 0 && <p className="mt-3 text-muted">Nothing here.</p>}
            <Pagination info={contacts.data.pageInfo} onPage={setPage} />
          </>
        )}
      </Loadable>
    </>
  );
}
