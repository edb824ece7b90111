import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { Loadable, PageHeader, Pagination, Table, td, wrapCell } from '../../components/back-office/admin-ui.tsx';
import { formatWhen } from '../../components/back-office/format.ts';
import { Person, RoleBadge } from '../../components/back-office/person.tsx';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminCustomers } from '../../../contract/admin-customers.ts';

export default function CustomersPage() {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const { data, error, loading } = useOperation(getAdminCustomers, { query: { page, q: search || undefined } });

  function submit(e: FormEvent) {
    e.preventDefault();
    setSearch(q.trim());
    setPage(1);
  }

  return (
    <>
      <PageHeader title="Customers" />
      <form onSubmit={submit} role="search" className="mb-4 flex max-w-xl items-end gap-3">
        <div className="flex-1">
          <TextField label="Search by e-mail or name" type="search" value={q} maxLength={200} onChange={(e) => setQ(e.target.value)} />
        </div>
        <Button type="submit">Search</Button>
      </form>
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <>
            <Table label="Customers" head={['Customer', 'Since', 'Orders', 'Signed in on', 'Role']}>
              {data.items.map((c) => (
                <tr key={c.id}>
                  <td className={`${td} ${wrapCell}`}>
                    <Person name={c.name} email={c.email} to={`/admin/customers/${c.id}`} />
                  </td>
                  <td className={td}>{formatWhen(c.createdAt)}</td>
                  <td className={td}>{c.orders}</td>
                  <td className={td}>
                    {c.activeSessions} {c.activeSessions === 1 ? 'device' : 'devices'}
                  </td>
                  <td className={td}>
                    <RoleBadge role={c.role} />
                  </td>
                </tr>
              ))}
            </Table>
            {data.items.length === 0 && <p className="mt-3 text-muted">No customer matches.</p>}
            <Pagination info={data.pageInfo} onPage={setPage} />
          </>
        )}
      </Loadable>
    </>
  );
}
