import { ONE_TIME_CODE_LENGTH, onlyDigits } from '../../../domain/validation.ts';
import { TextField } from '../../components/ui/text-field.tsx';

/** The six digits of a mailed code: digits only, the phone's one-time-code autofill offered. */
export function OneTimeCodeField({ value, error, onChange }: { value: string; error: string | null; onChange: (digits: string) => void }) {
  return (
    <TextField
      label="Code from the e-mail"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={ONE_TIME_CODE_LENGTH}
      value={value}
      error={error}
      onChange={(e) => onChange(onlyDigits(e.target.value).slice(0, ONE_TIME_CODE_LENGTH))}
    />
  );
}
