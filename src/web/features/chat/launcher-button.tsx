import { useRef } from 'react';
import { useClearOfPrimaryActions } from '../../components/use-clear-of-primary-actions.ts';
import { clearanceStyle } from '../../components/clear-of-primary-actions.ts';
// The closed state of the widget (spec §2 "Chat widget"): a 'Help & Support' button with the
// unread badge. Shared by the tiny launcher and the loaded widget.
export function LauncherButton({ unread, onClick, expanded }: { unread: number; onClick: () => void; expanded: boolean }) {
  const ref = useRef<HTMLButtonElement>(null);
  // Never on top of a primary action such as Pay: it moves up above it, or on a
  // phone steps aside (invisible and out of the tab order) while the action is under it.
  const clearance = useClearOfPrimaryActions(ref);
  return (
    <button
      ref={ref}
      style={clearanceStyle(clearance)}
      type="button"
      onClick={onClick}
      aria-expanded={expanded}
      aria-controls="chat-panel"
      data-testid="chat-launcher"
      data-keep-clear
      className="fixed right-4 bottom-4 z-[200] inline-flex items-center gap-2 rounded-full bg-accent-strong px-5 py-3 text-sm font-semibold
        text-white shadow-lg shadow-black/40 transition-[transform,opacity] duration-200 hover:bg-violet-800 motion-reduce:transition-none"
    >
      <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12Z" strokeLinejoin="round" />
      </svg>
      Help &amp; Support
      {unread > 0 && (
        <span data-testid="chat-unread" className="ml-1 rounded-full bg-white px-2 py-0.5 text-xs font-bold text-violet-900">
          {unread}
          <span className="sr-only"> unread {unread === 1 ? 'reply' : 'replies'}</span>
        </span>
      )}
    </button>
  );
}
