import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import type { Country } from '../../../domain/country.ts';
import { defaultPhoneCountry, useVisitorCountry } from '../geo/index.ts';
import { LEAD_EMAIL_INPUT_PATTERN, PHONE_MESSAGE, isValidPhoneDigits, joinPhone, normalizeEmail } from '../../../domain/validation.ts';
import { PhoneDigitsInput } from '../../components/ui/phone-digits-input.tsx';
import { StatusButton, type FormStatus } from '../../components/ui/status-button.tsx';
import { inputClass } from '../../components/ui/text-field.tsx';
import { sendLead, type LeadMode } from './send-lead.ts';
import { Island } from '../../islands/island.tsx';

// The picker (≈200 countries and their flags) loads only when the visitor switches to phone.
const CountryCodePicker = lazy(() => import('../../components/country-code-picker.tsx').then((m) => ({ default: m.CountryCodePicker })));

const modes: { mode: LeadMode; label: string }[] = [
  { mode: 'email', label: 'Email Address' },
  { mode: 'phone', label: 'Phone Number' },
];

/**
 * Spec §2/§4 lead form: Email Address / Phone Number toggle (default email), button states
 * 0 'Get you website', 1 loading, 2 "We'll reach out to you!". Any edit returns to idle; after
 * sending it is always done, whatever the server said (spec §8).
 */
export function LeadForm({ className = '' }: { className?: string }) {
  const id = useId();
  const [mode, setMode] = useState<LeadMode>('email');
  const [email, setEmail] = useState('');
  const [country, setCountry] = useState<Country>(defaultPhoneCountry);
  // The visitor's country once they choose a phone, until they pick one (docs/decisions/336-tracker-and-phone-country.md).
  const [pickedCountry, setPickedCountry] = useState(false);
  useVisitorCountry(mode === 'phone' && !pickedCountry, setCountry);
  const [digits, setDigits] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [status, setStatus] = useState<FormStatus>(0);

  const edited = () => setStatus(0);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (status === 1) return;
    if (mode === 'phone' && !isValidPhoneDigits(digits)) {
      setPhoneError(PHONE_MESSAGE);
      return;
    }
    setStatus(1);
    try {
      await sendLead(mode, mode === 'email' ? normalizeEmail(email) : joinPhone(country.phone_code, digits), window.location.pathname);
    } catch {
      // Spec §8: a failed lead is swallowed; the visitor still sees the done text.
    }
    setStatus(2);
  };

  return (
    <form
      method="post"
      onSubmit={(e) => void submit(e)}
      className={`w-full max-w-xl ${className}`}
      data-testid="lead-form"
      data-mode={mode}
    >
      <div role="group" aria-label="Contact me by" className="mb-3 inline-flex rounded-xl border border-line bg-field p-1">
        {modes.map((m) => (
          <button
            key={m.mode}
            type="button"
            aria-pressed={mode === m.mode}
            onClick={() => {
              setMode(m.mode);
              setPhoneError(null);
              edited();
            }}
            className={`min-h-10 rounded-lg px-4 text-sm font-medium transition-colors
            ${mode === m.mode ? 'bg-accent-strong text-white' : 'text-muted hover:text-white'}`}
          >
            {m.label}
          </button>
        ))}
      </div>
      <div className="flex flex-col gap-3 sm:flex-row">
        {mode === 'email' ? (
          <div className="flex-1">
            <label htmlFor={`${id}-email`} className="sr-only">
              Email Address
            </label>
            <input
              id={`${id}-email`}
              type="email"
              name="email"
              required
              maxLength={100}
              pattern={LEAD_EMAIL_INPUT_PATTERN}
              autoComplete="email"
              placeholder="you@example.com"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                edited();
              }}
              className={`${inputClass} min-h-12`}
            />
          </div>
        ) : (
          <div className="flex flex-1 flex-col gap-1">
            <div className="flex gap-2">
              <Suspense fallback={<span className="w-28 shrink-0 rounded-xl border border-line bg-field" />}>
                <CountryCodePicker
                  value={country}
                  onChange={(c) => {
                    setCountry(c);
                    setPickedCountry(true);
                    edited();
                  }}
                  className="w-28 shrink-0"
                />
              </Suspense>
              <label htmlFor={`${id}-phone`} className="sr-only">
                Phone Number
              </label>
              <PhoneDigitsInput
                id={`${id}-phone`}
                value={digits}
                error={phoneError}
                onChange={(next) => {
                  setDigits(next);
                  setPhoneError(null);
                  edited();
                }}
                onInvalidDigits={() => setPhoneError(PHONE_MESSAGE)}
                className="min-h-12"
              />
            </div>
            {phoneError && (
              <p id={`${id}-phone-error`} role="alert" className="text-sm text-danger">
                {phoneError}
              </p>
            )}
          </div>
        )}
        <StatusButton
          status={status}
          idleLabel="Get you website"
          doneLabel="We'll reach out to you!"
          className="min-h-12 sm:min-w-[13rem]"
        />
      </div>
    </form>
  );
}

/** The form as an island of a prerendered page. */
export const LeadFormIsland = (props: { className?: string }) => (
  <Island name="lead-form" hydrate={['interaction']} component={LeadForm} props={props} />
);
