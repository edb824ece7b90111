import { useState, type FormEvent } from 'react';
import type { SupportMessage } from '../../../contract/support.ts';
import { SUPPORT_LIMITS } from '../../../contract/support.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextAreaField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { formatShortWhen, PanelError } from '../workspace/index.ts';

// One support request's thread, the same for both sides: messages oldest first (plain text, line
// breaks kept) and a reply box. `reader` decides whose messages are "You".

export function RequestThread({
  messages,
  reader,
  fileName,
  canWrite,
  onSend,
}: {
  messages: SupportMessage[];
  reader: 'customer' | 'agency';
  fileName(id: string): string;
  canWrite: boolean;
  onSend(text: string): Promise<void>;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return setError('Write a message.');
    setBusy(true);
    try {
      await onSend(text);
      setText('');
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <ol className="flex flex-col gap-3" aria-label="Messages" data-testid="support-thread">
        {messages.map((m) => (
          <li
            key={m.id}
            data-testid="support-message"
            className={`max-w-[46rem] rounded-xl border border-line px-4 py-3 text-sm
            ${m.sender === reader ? 'self-end bg-accent-strong/20' : 'self-start bg-field'}`}
          >
            <p className="text-xs text-muted">
              {/* Who wrote it (docs/decisions/271-message-author-names.md): "You" only for one's own. */}
              {m.mine ? 'You' : (m.authorName ?? (m.sender === 'agency' ? 'The agency' : 'The customer'))} · {formatShortWhen(m.createdAt)}
            </p>
            <p className="mt-1 whitespace-pre-wrap wrap-anywhere text-ink">{m.text}</p>
            {m.fileIds.length > 0 && <p className="mt-1 text-xs wrap-anywhere text-muted">Files: {m.fileIds.map(fileName).join(', ')}</p>}
          </li>
        ))}
      </ol>
      {canWrite && (
        <form onSubmit={submit} className="flex flex-col gap-2">
          <TextAreaField label="Reply" rows={3} value={text} maxLength={SUPPORT_LIMITS.message} onChange={(e) => setText(e.target.value)} />
          {error && <PanelError message={error} />}
          <Button type="submit" disabled={busy} className="self-start">
            Send reply
          </Button>
        </form>
      )}
    </div>
  );
}
