import { useEffect, useState } from 'react';

const COPIED_MS = 5000; // spec §4/§9: 'COPIED!' for 5 s, then 'TAP TO COPY' again

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
      aria-label={copied ? `Code ${value} copied` : `Copy code ${value}`}
      className={`inline-flex min-h-11 min-w-[9rem] items-center justify-center gap-2 rounded-xl border border-dashed px-4 text-sm font-bold tracking-wide transition-colors ${
        copied ? 'border-success bg-success-strong/25 text-success' : 'border-accent-soft text-accent-soft hover:bg-accent-strong/20'
      } ${className}`}
    >
      {copied && (
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M5 12.5l4.5 4.5L19 7.5" />
        </svg>
      )}
      <span aria-live="polite">{copied ? 'COPIED!' : 'TAP TO COPY'}</span>
    </button>
  );
}
