import { useEffect, useRef, useState, type FormEvent } from 'react';
import { findCountryByPhoneCode, type Country } from '../../../domain/countries.ts';
import { PHONE_MESSAGE, isValidPhoneDigits } from '../../../domain/validation.ts';
import { AddressField, NameField, PhoneField } from '../../components/personal-details-fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import type { SessionUser } from '../../lib/session.tsx';
import { FormError } from '../auth/index.ts';
import { updateProfile } from './account-api.ts';
import { fieldErrorsFrom } from './field-errors.ts';
import { defaultPhoneCountry, useVisitorCountry } from '../geo/index.ts';

const FIELDS = ['name', 'phone_code', 'phone_number', 'address'] as const;

/**
 * Personal Details in edit mode (a deviation from the spec's read-only view that
 * the privacy policy's promise of correction requires): name, phone with the country picker as on
 * /signup/enterDetails, address. Only what changed is sent; the server's messages show under their
 * fields. `onSaved` refreshes the session's copy of the user.
 */
export function ProfileForm({ user, onSaved, onCancel }: { user: SessionUser; onSaved: () => Promise<void>; onCancel: () => void }) {
  const [name, setName] = useState(user.name ?? '');
  const [country, setCountry] = useState<Country>(findCountryByPhoneCode(user.phone_code) ?? defaultPhoneCountry());
  const [phone, setPhone] = useState(user.phone_number ?? '');
  // No phone stored yet: the visitor's country until they pick one (docs/decisions/217-phone-country-from-location.md).
  const [pickedCountry, setPickedCountry] = useState(Boolean(user.phone_code));
  useVisitorCountry(!pickedCountry, setCountry);
  const [address, setAddress] = useState(user.address ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // The form replaces the details the person was reading: focus goes to its first field.
  useEffect(() => formRef.current?.querySelector('input')?.focus(), []);

  const clear = (field: string) => {
    setErrors(({ [field]: _gone, ...rest }) => rest);
    setFormError(null);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = 'Please enter your name.';
    if (!isValidPhoneDigits(phone)) local.phone_number = PHONE_MESSAGE;
    if (!address.trim()) local.address = 'Please enter your address.';
    setErrors(local);
    if (Object.keys(local).length) return;
    // The code and the number are one value to the server: a change of either sends both.
    const phoneChanged = country.phone_code !== (user.phone_code ?? '').replace(/^\+/, '') || phone !== (user.phone_number ?? '');
    const body = {
      ...(name.trim() !== (user.name ?? '') ? { name: name.trim() } : {}),
      ...(phoneChanged ? { phone_code: country.phone_code, phone_number: phone } : {}),
      ...(address.trim() !== (user.address ?? '') ? { address: address.trim() } : {}),
    };
    if (!Object.keys(body).length) return onCancel();
    setSaving(true);
    setFormError(null);
    try {
      await updateProfile(body);
      await onSaved();
    } catch (err) {
      const { fields, form } = fieldErrorsFrom(err, FIELDS);
      // The code belongs to the phone row: one message under the phone.
      if (fields.phone_code && !fields.phone_number) fields.phone_number = fields.phone_code;
      setErrors(fields);
      setFormError(form);
      setSaving(false);
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Edit personal details" className="flex flex-col gap-4">
      <NameField
        value={name}
        error={errors.name}
        onChange={(value) => {
          setName(value);
          clear('name');
        }}
      />
      <PhoneField
        id="profile-phone"
        country={country}
        onCountryChange={(c) => {
          setPickedCountry(true);
          setCountry(c);
          clear('phone_number');
        }}
        digits={phone}
        error={errors.phone_number ?? null}
        onDigitsChange={(digits) => {
          setPhone(digits);
          clear('phone_number');
        }}
        onInvalidDigits={() => setErrors((prev) => ({ ...prev, phone_number: PHONE_MESSAGE }))}
      />
      <AddressField
        value={address}
        error={errors.address}
        onChange={(value) => {
          setAddress(value);
          clear('address');
        }}
      />
      <FormError>{formError}</FormError>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={saving} className="min-h-11">
          Cancel
        </Button>
        <Button type="submit" disabled={saving} className="min-h-11" data-primary-action>
          {saving ? <Spinner label="Saving your details" /> : 'Save'}
        </Button>
      </div>
    </form>
  );
}
