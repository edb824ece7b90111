import type { Country } from '../../domain/countries.ts';
import { ADDRESS_MAX, NAME_MAX } from '../../domain/validation.ts';
import { CountryCodePicker } from './country-code-picker.tsx';
import { PhoneDigitsInput } from './ui/phone-digits-input.tsx';
import { FieldShell, TextAreaField, TextField } from './ui/text-field.tsx';

// A customer's personal details (spec §5: name, phone with its country code, address) are entered
// on sign-up's details form and corrected on the dashboard's edit form. Both use these fields so
// the labels, limits, autofill hints and the phone's checks are the same in both places; each form
// keeps its own state and says what a change clears.

interface TextDetailProps {
  value: string;
  error?: string | null;
  onChange: (value: string) => void;
}

export function NameField({ value, error, onChange }: TextDetailProps) {
  return (
    <TextField
      label="Name"
      name="name"
      autoComplete="name"
      required
      maxLength={NAME_MAX}
      value={value}
      error={error}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export function AddressField({ value, error, onChange }: TextDetailProps) {
  return (
    <TextAreaField
      label="Address"
      name="address"
      autoComplete="street-address"
      required
      rows={3}
      maxLength={ADDRESS_MAX}
      value={value}
      error={error}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

interface PhoneFieldProps {
  /** The digits input's id; the label points at it and its error is `${id}-error`. */
  id: string;
  country: Country;
  onCountryChange: (country: Country) => void;
  digits: string;
  error: string | null;
  onDigitsChange: (digits: string) => void;
  onInvalidDigits: () => void;
}

/** The country-code picker beside the digits: one label, one error under the row. */
export function PhoneField({ id, country, onCountryChange, digits, error, onDigitsChange, onInvalidDigits }: PhoneFieldProps) {
  return (
    <FieldShell id={id} label="Phone" error={error}>
      <div className="flex gap-2">
        <CountryCodePicker value={country} onChange={onCountryChange} className="w-32 shrink-0" />
        <PhoneDigitsInput id={id} value={digits} error={error} onChange={onDigitsChange} onInvalidDigits={onInvalidDigits} />
      </div>
    </FieldShell>
  );
}
