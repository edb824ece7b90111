import { useEffect, useState } from 'react';
import { COPIED_MS, COPY_BUTTON_BASE, copyButtonLabel, copyButtonStateClasses, copyButtonText } from './copy-button-style.ts';

/** Copies `value` to the clipboard: 'TAP TO COPY' → 'COPIED!' with a tick for 5 s (spec §4). */
export function CopyButton({ value, className = '' }: { value: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch (err) {
      // Spec §8: a clipboard failure is logged only.
      console.log('copy failed', err);
    }
  };

  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={copyButtonLabel(value, copied)}
      data-copy-button
      className={`${COPY_BUTTON_BASE} ${copyButtonStateClasses(copied)} ${className}`}
    >
      {/* Always in the markup (hidden until copied): the popup's DOM island shows it the same way. */}
      <svg
        viewBox="0 0 24 24"
        className={copied ? 'h-4 w-4' : 'hidden h-4 w-4'}
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="M5 12.5l4.5 4.5L19 7.5" />
      </svg>
      <span aria-live="polite">{copyButtonText(copied)}</span>
    </button>
  );
}
