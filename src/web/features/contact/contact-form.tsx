import { lazy, Suspense, useEffect, useId, useState, type FormEvent } from 'react';
import { findCountryByPhoneCode, type Country } from '../../../domain/countries.ts';
import { defaultPhoneCountry, useVisitorCountry } from '../geo/index.ts';
import {
  ADDRESS_MAX,
  EMAIL_MAX,
  MESSAGE_MAX,
  NAME_MAX,
  PHONE_MESSAGE,
  isValidPhoneDigits,
  onlyDigits,
} from '../../../domain/validation.ts';
import { StatusButton, type FormStatus } from '../../components/ui/status-button.tsx';
import { FieldShell, TextAreaField, TextField } from '../../components/ui/text-field.tsx';
import { PhoneDigitsInput } from '../../components/ui/phone-digits-input.tsx';
import { useSession } from '../../lib/session.tsx';
import { sendContact } from './send-contact.ts';

// The picker (≈200 countries and their flags) is its own chunk, loaded when the form comes to life.
const PICKER_PLACE = <span className="w-28 shrink-0 rounded-xl border border-line bg-field" />;
const CountryCodePicker = lazy(() => import('../../components/country-code-picker.tsx').then((m) => ({ default: m.CountryCodePicker })));

interface ContactFormProps {
  messageLabel?: string;
  messagePlaceholder?: string;
}

/**
 * Spec §2/§4 contact form: name, e-mail, phone with country code, address (optional, 3 rows) and
 * message (optional, 5 rows). States 0 'Reach out to me!', 1 loading, 2 "We'll reach out to you!";
 * editing anything but the phone returns to idle; after sending it is always done (spec §8).
 * Signed in, name, e-mail, phone and address come from the profile.
 */
export function ContactForm({ messageLabel = 'Message', messagePlaceholder = 'Tell us about your project' }: ContactFormProps) {
  const id = useId();
  const { user } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [country, setCountry] = useState<Country>(defaultPhoneCountry);
  // The profile's country, else the visitor's, until they pick one (docs/decisions/336-tracker-and-phone-country.md).
  const [pickedCountry, setPickedCountry] = useState(false);
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  useVisitorCountry(!pickedCountry && !user?.phone_code, setCountry);
  const [digits, setDigits] = useState('');
  const [address, setAddress] = useState('');
  const [message, setMessage] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [status, setStatus] = useState<FormStatus>(0);

  useEffect(() => {
    if (!user) return;
    setName((v) => v || user.name || '');
    setEmail((v) => v || user.email || '');
    setDigits((v) => v || onlyDigits(user.phone_number ?? ''));
    setAddress((v) => v || user.address || '');
    const fromProfile = findCountryByPhoneCode(user.phone_code);
    if (fromProfile) {
      setCountry(fromProfile);
      setPickedCountry(true);
    }
  }, [user]);

  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    setStatus(0);
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (status === 1) return;
    if (!isValidPhoneDigits(digits)) {
      setPhoneError(PHONE_MESSAGE);
      return;
    }
    setStatus(1);
    try {
      await sendContact({
        name: name.trim(),
        email: email.trim().toLowerCase(),
        message,
        phone_code: `+${country.phone_code}`,
        phone_number: digits,
        address: address.trim(),
      });
    } catch {
      // Spec §8: a failed submission is silently treated as done.
    }
    setStatus(2);
  };

  return (
    <form method="post" onSubmit={(e) => void submit(e)} className="flex flex-col gap-5" data-testid="contact-form">
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          required
          maxLength={NAME_MAX}
          autoComplete="name"
          placeholder="Your name"
          value={name}
          onChange={(e) => edit(setName)(e.target.value)}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          required
          maxLength={EMAIL_MAX}
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => edit(setEmail)(e.target.value)}
        />
      </div>
      <FieldShell id={`${id}-phone`} label="Phone" error={phoneError}>
        <div className="flex gap-2">
          <Suspense fallback={PICKER_PLACE}>
            {/* After mount only: the prerendered page always holds the placeholder, whenever the lazy
                picker's import resolves (scripts/prerender.mjs compares two renders of the page). */}
            {!mounted ? (
              PICKER_PLACE
            ) : (
              <CountryCodePicker
                value={country}
                onChange={(c) => {
                  setCountry(c);
                  setPickedCountry(true);
                }}
                className="w-28 shrink-0"
              />
            )}
          </Suspense>
          {/* Spec §4: editing the phone does not reset the button state. */}
          <PhoneDigitsInput
            id={`${id}-phone`}
            value={digits}
            error={phoneError}
            onChange={(next) => {
              setDigits(next);
              setPhoneError(null);
            }}
            onInvalidDigits={() => setPhoneError(PHONE_MESSAGE)}
          />
        </div>
      </FieldShell>
      <TextAreaField
        label="Address (optional)"
        name="address"
        rows={3}
        maxLength={ADDRESS_MAX}
        autoComplete="street-address"
        value={address}
        onChange={(e) => edit(setAddress)(e.target.value)}
      />
      <TextAreaField
        label={`${messageLabel} (optional)`}
        name="message"
        rows={5}
        maxLength={MESSAGE_MAX}
        placeholder={messagePlaceholder}
        value={message}
        onChange={(e) => edit(setMessage)(e.target.value)}
      />
      <StatusButton
        status={status}
        idleLabel="Reach out to me!"
        doneLabel="We'll reach out to you!"
        className="min-h-12 self-start sm:min-w-[14rem]"
      />
    </form>
  );
}
