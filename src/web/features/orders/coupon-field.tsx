import { useId } from 'react';
import { inputClass } from '../../components/ui/text-field.tsx';

export type CouponState = 'idle' | 'checking' | 'applied' | 'invalid';

const label: Record<CouponState, string> = { idle: 'Apply', checking: 'Apply', applied: 'Applied', invalid: 'Invalid' };

/** Spec §4 "Coupon button": Apply, then Applied or Invalid; editing the code resets to Apply. */
export function CouponField(props: {
  value: string;
  state: CouponState;
  message?: string | null;
  placeholder?: string;
  onChange(v: string): void;
  onApply(): void;
  onRemove?: () => void;
}) {
  const id = useId();
  const { state } = props;
  return (
    <form
      className="flex flex-col gap-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply();
      }}
    >
      <label htmlFor={id} className="text-sm font-medium text-ink">
        Coupon or referral code
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          value={props.value}
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => props.onChange(e.target.value.toUpperCase())}
          className={`${inputClass} uppercase placeholder:normal-case`}
          aria-describedby={`${id}-msg`}
          aria-invalid={state === 'invalid' ? true : undefined}
          placeholder={props.placeholder ?? 'Enter your code'}
        />
        <button
          type="submit"
          disabled={!props.value.trim() || state === 'checking'}
          className={`shrink-0 rounded-xl px-5 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed
            disabled:opacity-60 ${
              state === 'applied'
                ? 'bg-success-strong text-white'
                : state === 'invalid'
                  ? 'bg-red-800 text-white'
                  : 'bg-accent-strong text-white hover:bg-accent-hover'
            }`}
        >
          {label[state]}
        </button>
      </div>
      <div className="flex min-h-5 flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <p id={`${id}-msg`} role="status" className={state === 'invalid' ? 'text-danger' : 'text-muted'} data-testid="coupon-message">
          {props.message ?? ''}
        </p>
        {props.onRemove && (
          <button type="button" onClick={props.onRemove} className="text-accent-soft underline underline-offset-2 hover:text-white">
            Remove code
          </button>
        )}
      </div>
    </form>
  );
}
