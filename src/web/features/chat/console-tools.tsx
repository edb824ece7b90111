import { useState } from 'react';
import {
  type CannedReply,
  deleteAdminCannedRepliesById,
  getAdminCannedReplies,
  getAdminChatAvailability,
  patchAdminCannedRepliesById,
  postAdminCannedReplies,
  putAdminChatAvailability,
} from '../../../contract/chat-console.ts';
import type { ChatMessage } from '../../../contract/chat.ts';
import { formatWait } from '../../../domain/business-hours.ts';
import { call } from '../../lib/call.ts';
import { errorMessage } from '../../lib/api.ts';
import { useOperation } from '../../lib/use-operation.ts';

// The console's tools (docs/decisions/347-chat-availability-canned-replies-csat.md): the "available" /
// "away" switch, the canned replies (typed as their shortcut, then Tab) and the first-response time.

const expectText = (iso: string) => new Date(iso).toLocaleString(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' });

export function AvailabilitySwitch() {
  const loaded = useOperation(getAdminChatAvailability, {});
  const [error, setError] = useState<string | null>(null);
  const a = loaded.data;
  if (!a) return loaded.error ? <p className="text-xs text-amber-300">{loaded.error}</p> : null;
  const toggle = async () => {
    setError(null);
    try {
      const next = await call(putAdminChatAvailability, { body: { available: !a.available } });
      loaded.set(() => next);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <div className="flex flex-col items-start gap-1 sm:items-end" data-testid="chat-availability">
      <button
        type="button"
        role="switch"
        aria-checked={a.available}
        onClick={() => void toggle()}
        className={`flex min-h-11 items-center gap-2 rounded-full border px-4 py-1.5 text-sm font-semibold ${
          a.available ? 'border-success text-white' : 'border-line text-muted'
        }`}
      >
        <span aria-hidden="true" className={`size-2.5 rounded-full ${a.available ? 'bg-success' : 'bg-muted'}`} />
        {a.available ? 'Available' : 'Away'}
      </button>
      <span className="text-xs text-muted">
        {!a.withinHours ? 'Outside chat hours' : a.available ? 'Visitors can chat live' : 'Visitors are asked for an e-mail'}
        {a.expectReplyAt ? ` · reply expected by ${expectText(a.expectReplyAt)}` : ''}
      </span>
      {error && <span className="text-xs text-amber-300">{error}</span>}
    </div>
  );
}

/** The canned replies for the composer; `expand` turns a typed shortcut at the end into its text. */
export function useCannedReplies() {
  const loaded = useOperation(getAdminCannedReplies, {});
  const replies = loaded.data?.replies ?? [];
  const expand = (text: string): string | null => {
    const m = /(^|\s)(\/[a-z0-9_-]+)$/i.exec(text);
    const reply = m ? replies.find((r) => r.shortcut === m[2]!.toLowerCase()) : undefined;
    return reply ? text.slice(0, text.length - m![2]!.length) + reply.text : null;
  };
  return { replies, expand, loaded };
}

/** "First response: 3 min" from the chat's messages (the visitor's first, the agency's first). */
export function FirstResponse({ messages, fallback }: { messages: ChatMessage[]; fallback?: number | null }) {
  const firstUser = messages.find((m) => m.sender === 'user');
  const firstAdmin = messages.find((m) => m.sender === 'admin');
  const seconds =
    firstUser && firstAdmin ? Math.max(0, (Date.parse(firstAdmin.createdAt) - Date.parse(firstUser.createdAt)) / 1000) : fallback;
  return (
    <p className="text-xs text-muted" data-testid="first-response">
      {seconds === null || seconds === undefined
        ? firstUser
          ? 'Not answered yet'
          : 'No message yet'
        : `First response: ${formatWait(seconds)}`}
    </p>
  );
}

const empty = { title: '', text: '', shortcut: '/' };

/** The list for everyone; adding, editing and deleting for the owner. */
export function CannedRepliesPanel({ canned, canEdit }: { canned: ReturnType<typeof useCannedReplies>; canEdit: boolean }) {
  const [form, setForm] = useState(empty);
  const [editing, setEditing] = useState<CannedReply | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    try {
      if (editing) await call(patchAdminCannedRepliesById, { params: { id: editing.id }, body: form });
      else await call(postAdminCannedReplies, { body: form });
      setForm(empty);
      setEditing(null);
      await canned.loaded.reload();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const remove = async (r: CannedReply) => {
    setError(null);
    try {
      await call(deleteAdminCannedRepliesById, { params: { id: r.id } });
      await canned.loaded.reload();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const field =
    'min-w-0 rounded-lg border border-line bg-page px-2 py-1.5 text-sm text-ink placeholder:text-muted focus:border-accent focus:outline-none';
  return (
    <section aria-labelledby="canned-title" className="rounded-2xl border border-line bg-card p-4" data-testid="canned-replies">
      <h2 id="canned-title" className="font-semibold text-white">
        Canned replies
      </h2>
      <p className="mt-1 text-xs text-muted">Type a shortcut in the reply box and press Tab to insert its text.</p>
      <ul className="mt-3 flex flex-col gap-2">
        {canned.replies.length === 0 && <li className="text-sm text-muted">No canned replies yet.</li>}
        {canned.replies.map((r) => (
          <li
            key={r.id}
            className="flex min-w-0 flex-col gap-1 rounded-xl border border-line p-3 text-sm sm:flex-row sm:items-start sm:justify-between"
          >
            <div className="min-w-0">
              <p className="text-ink">
                <code className="font-mono text-accent-soft">{r.shortcut}</code> · <span className="font-semibold">{r.title}</span>
              </p>
              <p className="mt-1 line-clamp-2 wrap-anywhere text-muted">{r.text}</p>
            </div>
            {canEdit && (
              <div className="flex shrink-0 gap-2">
                <button
                  type="button"
                  className="min-h-9 rounded-lg border border-line px-2 text-xs font-semibold text-ink hover:border-accent"
                  onClick={() => {
                    setEditing(r);
                    setForm({ title: r.title, text: r.text, shortcut: r.shortcut });
                  }}
                >
                  Edit<span className="sr-only"> {r.shortcut}</span>
                </button>
                <button
                  type="button"
                  className="min-h-9 rounded-lg border border-line px-2 text-xs font-semibold text-ink hover:border-red-400"
                  onClick={() => void remove(r)}
                >
                  Delete<span className="sr-only"> {r.shortcut}</span>
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {canEdit && (
        <form
          className="mt-3 grid gap-2 sm:grid-cols-[8rem_1fr]"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <input
            className={field}
            aria-label="Shortcut"
            placeholder="/price"
            value={form.shortcut}
            maxLength={31}
            onChange={(e) => setForm({ ...form, shortcut: e.target.value })}
          />
          <input
            className={field}
            aria-label="Title"
            placeholder="Title"
            value={form.title}
            maxLength={80}
            onChange={(e) => setForm({ ...form, title: e.target.value })}
          />
          <textarea
            className={`${field} sm:col-span-2`}
            aria-label="Text to insert"
            placeholder="The text it inserts"
            rows={2}
            maxLength={2000}
            value={form.text}
            onChange={(e) => setForm({ ...form, text: e.target.value })}
          />
          <div className="flex gap-2 sm:col-span-2">
            <button type="submit" className="min-h-9 rounded-lg bg-accent-strong px-3 text-sm font-semibold text-white hover:bg-violet-800">
              {editing ? 'Save reply' : 'Add reply'}
            </button>
            {editing && (
              <button
                type="button"
                className="min-h-9 rounded-lg border border-line px-3 text-sm text-ink"
                onClick={() => {
                  setEditing(null);
                  setForm(empty);
                }}
              >
                Cancel
              </button>
            )}
          </div>
        </form>
      )}
      {error && (
        <p role="alert" className="mt-2 text-xs text-amber-300">
          {error}
        </p>
      )}
    </section>
  );
}
