import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from './close-icon.tsx';

interface ModalDialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** While true, Escape and the close button do nothing (a request is under way). */
  busy?: boolean;
  testId?: string;
  /** Changing it (the next step of a flow) moves focus to the step's first field or button again. */
  step?: string;
}

/**
 * A modal dialog on the browser's own <dialog>: showModal() makes the rest of the page inert, so
 * focus and the screen reader stay inside (the focus trap), and Escape closes it. Focus goes to the
 * first field or button when it opens and back to whatever opened it when it closes. Mounted = open.
 */
export function ModalDialog({ title, onClose, children, busy = false, testId, step }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const busyRef = useRef(busy);
  busyRef.current = busy;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    // Escape fires `cancel`: the parent decides (it unmounts us), the browser does not close on its own.
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (!busyRef.current) closeRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.close();
      // The opener may have been replaced meanwhile (a re-render): only refocus what is still there.
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // After the content of a step is in place: its first field, or the button marked data-autofocus.
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('input:not([disabled]), textarea, select, [data-autofocus]')?.focus();
  }, [step]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      data-testid={testId}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(34rem,calc(100vw-2rem))] overflow-y-auto rounded-2xl border border-line bg-card p-0
        text-ink shadow-2xl shadow-black/70 backdrop:bg-black/70"
    >
      <div className="flex items-start justify-between gap-3 border-b border-line px-5 py-4 sm:px-6">
        <h2 id={titleId} className="text-lg font-semibold text-white">
          {title}
        </h2>
        <button
          type="button"
          aria-label="Close"
          disabled={busy}
          onClick={onClose}
          className="-mr-2 -mt-1 inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-muted hover:bg-white/5
            hover:text-white disabled:opacity-50"
        >
          <CloseIcon />
        </button>
      </div>
      <div className="px-5 py-5 sm:px-6">{children}</div>
    </dialog>
  );
}
