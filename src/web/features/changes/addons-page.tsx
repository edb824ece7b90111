import { useState } from 'react';
import { getAdminAddons, patchAdminAddonsById, postAdminAddons } from '../../../contract/changes.ts';
import type { OperationInput } from '../../../contract/operation.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, ErrorText, Loadable, Notice, PageHeader, Table, td } from '../../components/back-office/admin-ui.tsx';
import { formatMinor } from '../../components/back-office/format.ts';
import { useCanSee } from '../../components/back-office/owner-only.tsx';
import { runOperation, useOperation } from '../../lib/use-operation.ts';
import { DaysField, Field } from './form-fields.tsx';

/** /admin/addons (docs/decisions/250-change-requests.md): the catalogue; staff read it, the owner edits it. */
export default function AddonsPage() {
  const { data, error, loading, reload } = useOperation(getAdminAddons, {});
  const canEdit = useCanSee('addons-edit');
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const act = async (work: Promise<{ error: string | null }>, message: string) => {
    const r = await work;
    setActionError(r.error);
    setNotice(r.error ? null : message);
    if (!r.error) await reload();
    return !r.error;
  };
  return (
    <>
      <PageHeader title="Add-ons" />
      <div className="flex flex-col gap-6">
        <p className="text-sm text-muted">
          Extras a customer can request from their order page and /pricing. Prices are in US dollars before GST and converted like the plan.
        </p>
        {notice && <Notice>{notice}</Notice>}
        {actionError && <ErrorText>{actionError}</ErrorText>}
        <Loadable loading={loading && !data} error={error}>
          {data && (
            <Table label="Add-ons" head={['Name', 'Price', 'Extra days', 'State', ...(canEdit ? [''] : [])]}>
              {data.addons.map((a) => (
                <tr key={a.id} className="border-t border-line" data-testid="addon-row">
                  <td className={td}>
                    <p className="font-medium text-white">{a.name}</p>
                    <p className="text-xs text-muted">{a.description}</p>
                  </td>
                  <td className={td}>{formatMinor(a.price, 'USD')}</td>
                  <td className={td}>{a.extraDays}</td>
                  <td className={td}>{a.active ? 'Active' : 'Off'}</td>
                  {canEdit && (
                    <td className={td}>
                      <Button
                        variant="secondary"
                        className="whitespace-nowrap"
                        onClick={() =>
                          void act(
                            runOperation(patchAdminAddonsById, { params: { id: a.id }, body: { active: !a.active } }),
                            `${a.name} is ${a.active ? 'off' : 'active'}.`,
                          )
                        }
                      >
                        {a.active ? 'Switch off' : 'Switch on'}
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </Table>
          )}
        </Loadable>
        {canEdit && <NewAddon onCreate={(body) => act(runOperation(postAdminAddons, { body }), 'Add-on created.')} />}
      </div>
    </>
  );
}

function NewAddon({ onCreate }: { onCreate(body: OperationInput<typeof postAdminAddons>['body']): Promise<boolean> }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [price, setPrice] = useState('');
  const [days, setDays] = useState('0');
  return (
    <Card title="New add-on">
      <form
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          void onCreate({
            name,
            description,
            price: Math.round(Number(price) * 100),
            extraDays: Number(days),
          }).then((ok) => {
            if (ok) {
              setName('');
              setDescription('');
              setPrice('');
              setDays('0');
            }
          });
        }}
      >
        <Field label="Name" maxLength={80} value={name} onChange={setName} />
        <Field label="Price (USD, before GST)" inputMode="decimal" value={price} onChange={setPrice} />
        <Field label="Description" wrap="sm:col-span-2" maxLength={500} value={description} onChange={setDescription} />
        <DaysField value={days} onChange={setDays} />
        <div className="flex items-end">
          <Button type="submit" disabled={!name.trim() || !price.trim()}>
            Add
          </Button>
        </div>
      </form>
    </Card>
  );
}
