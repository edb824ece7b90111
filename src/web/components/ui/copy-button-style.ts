// The copy button's two states (spec §4/§9: 'TAP TO COPY' → 'COPIED!' with a tick for 5 s), shared
// by the React CopyButton and the coupon popup's DOM island (no React there, decision 115).
export const COPIED_MS = 5000;

export const copyButtonText = (copied: boolean) => (copied ? 'COPIED!' : 'TAP TO COPY');
export const copyButtonLabel = (value: string, copied: boolean) => (copied ? `Code ${value} copied` : `Copy code ${value}`);
export const COPY_BUTTON_BASE =
  'inline-flex min-h-11 min-w-[9rem] items-center justify-center gap-2 rounded-xl border border-dashed px-4 text-sm font-bold tracking-wide transition-colors';
export const copyButtonStateClasses = (copied: boolean) =>
  copied ? 'border-success bg-success-strong/25 text-success' : 'border-accent-soft text-accent-soft hover:bg-accent-strong/20';
