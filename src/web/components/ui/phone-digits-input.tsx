import { PHONE_MESSAGE, isValidPhoneDigits, onlyDigits } from '../../../domain/validation.ts';
import { inputClass } from './text-field.tsx';

interface PhoneDigitsInputProps {
  id: string;
  value: string;
  /** Shown under the field by the caller; the input points at it. */
  error: string | null;
  onChange: (digits: string) => void;
  onInvalidDigits: () => void;
  className?: string;
}

/**
 * The digits after the country code (spec §5): only digits are kept, 5 to 11 of them; the spec's
 * message is also the browser's own validation message for a wrong number.
 */
export function PhoneDigitsInput({ id, value, error, onChange, onInvalidDigits, className = '' }: PhoneDigitsInputProps) {
  return (
    <input
      id={id}
      type="tel"
      name="phone"
      inputMode="numeric"
      required
      maxLength={11}
      autoComplete="tel-national"
      placeholder="9876543210"
      value={value}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : undefined}
      onChange={(e) => {
        const next = onlyDigits(e.target.value);
        e.target.setCustomValidity(next === '' || isValidPhoneDigits(next) ? '' : PHONE_MESSAGE);
        onChange(next);
      }}
      onInvalid={() => value !== '' && onInvalidDigits()}
      className={`${inputClass} min-w-0 flex-1 ${className}`}
    />
  );
}
