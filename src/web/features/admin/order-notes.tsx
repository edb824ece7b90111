import { useState, type FormEvent } from 'react';
import { INTERNAL_NOTE_MAX, isDeliveryUrl } from '../../../domain/admin.ts';
import { Button } from '../../components/ui/button.tsx';
import { CharCount, TextField, inputClass } from '../../components/ui/text-field.tsx';
import { Card } from '../../components/back-office/admin-ui.tsx';
import { runOperation } from '../../lib/use-operation.ts';
import { putAdminOrdersDeliveryLink, putAdminOrdersInternalNote } from '../../../contract/admin-orders.ts';

interface Props {
  orderId: string;
  deliveryUrl: string | null;
  internalNote: string | null;
  /** Stage 15 done: the customer's status page shows the link. */
  delivered: boolean;
  onDone(message: string | null, error: string | null): Promise<void>;
}

/** The delivery link (customer sees it once fully paid) and the internal note (never shown). */
export function OrderNotes({ orderId, deliveryUrl, internalNote, delivered, onDone }: Props) {
  const [url, setUrl] = useState(deliveryUrl ?? '');
  const [note, setNote] = useState(internalNote ?? '');
  // Said beside the button that was pressed, not only at the top of a long page.
  const [saved, setSaved] = useState<'link' | 'note' | null>(null);
  const urlError = url.trim() && !isDeliveryUrl(url.trim()) ? 'Enter a full http:// or https:// address.' : null;

  async function saveUrl(e: FormEvent) {
    e.preventDefault();
    if (urlError) return;
    const { error } = await runOperation(putAdminOrdersDeliveryLink, { params: { id: orderId }, body: { url: url.trim() } });
    setSaved(error ? null : 'link');
    await onDone(null, error);
  }

  async function saveNote(e: FormEvent) {
    e.preventDefault();
    const { error } = await runOperation(putAdminOrdersInternalNote, { params: { id: orderId }, body: { note } });
    setSaved(error ? null : 'note');
    await onDone(null, error);
  }

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card title="Delivery link">
        <form onSubmit={saveUrl} className="flex flex-col gap-3">
          <TextField
            label="Website address"
            type="url"
            inputMode="url"
            placeholder="https://"
            value={url}
            maxLength={2000}
            required
            onChange={(e) => {
              setUrl(e.target.value);
              setSaved(null);
            }}
            error={urlError}
            hint={
              delivered
                ? 'The customer sees this link now.'
                : 'The customer sees it once the remaining payment is in and “Website Delivery” is completed.'
            }
          />
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={Boolean(urlError)}>
              Save link
            </Button>
            <span role="status" className="text-sm text-success" data-testid="delivery-link-saved">
              {saved === 'link' ? 'Delivery link saved.' : ''}
            </span>
          </div>
        </form>
      </Card>
      <Card title="Internal note">
        <form onSubmit={saveNote} className="flex flex-col gap-3">
          <label htmlFor="internal-note" className="text-sm font-medium text-ink">
            Only the team sees this note
          </label>
          <textarea
            id="internal-note"
            className={inputClass}
            rows={4}
            value={note}
            onChange={(e) => {
              setNote(e.target.value);
              setSaved(null);
            }}
          />
          <CharCount length={note.length} max={INTERNAL_NOTE_MAX} />
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" variant="secondary" disabled={note.length > INTERNAL_NOTE_MAX}>
              Save note
            </Button>
            <span role="status" className="text-sm text-success">
              {saved === 'note' ? 'Internal note saved.' : ''}
            </span>
          </div>
        </form>
      </Card>
    </div>
  );
}
