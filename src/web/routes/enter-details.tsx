import { useMemo, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { Country } from '../../domain/countries.ts';
import { PHONE_MESSAGE, isValidPhoneDigits } from '../../domain/validation.ts';
import { AddressField, NameField, PhoneField } from '../components/personal-details-fields.tsx';
import { Button } from '../components/ui/button.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { TextField } from '../components/ui/text-field.tsx';
import { errorMessage } from '../lib/api.ts';
import { useSession } from '../lib/session.tsx';
import { defaultPhoneCountry, useVisitorCountry } from '../features/geo/use-visitor-country.ts';
import { addUser } from '../features/auth/auth-api.ts';
import { AuthShell, FormError } from '../features/auth/auth-shell.tsx';
import { afterDetails, forgetDetailsState, readAuthState, recallDetailsState } from '../features/auth/auth-state.ts';

type ButtonState = 0 | 1 | 2; // same states as the code screen (spec §4 "Details submission failure")

// Spec §2 /signup/enterDetails: email_pass and name_pass from router state; name, e-mail, phone
// with the country-code picker, address (spec §5 rules). The e-mail is the one just proven.
export default function EnterDetailsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const initial = useMemo(() => {
    const fromRouter = readAuthState(location.state);
    return fromRouter.signupTicket ? fromRouter : recallDetailsState();
  }, [location.state]);
  const [name, setName] = useState(initial.name_pass ?? '');
  const [country, setCountry] = useState<Country>(defaultPhoneCountry);
  // The visitor's country until they pick one themselves (docs/decisions/217-phone-country-from-location.md).
  const [pickedCountry, setPickedCountry] = useState(false);
  useVisitorCountry(!pickedCountry, setCountry);
  const [phone, setPhone] = useState('');
  const [address, setAddress] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [state, setState] = useState<ButtonState>(0);
  const [error, setError] = useState<string | null>(null);

  if (!initial.signupTicket || !initial.email_pass) return <Navigate to="/signup" replace />;
  const email = initial.email_pass;
  // An invited team member: no home address or phone "for your orders and invoices" (decision 276).
  const staff = initial.staff === true;
  const edited = () => {
    setState(0);
    setError(null);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!staff && !isValidPhoneDigits(phone)) {
      setPhoneError(PHONE_MESSAGE);
      return;
    }
    setState(1);
    setError(null);
    try {
      const res = await addUser({
        email,
        name: name.trim(),
        ...(staff ? {} : { address: address.trim(), phone_code: country.phone_code, phone_number: phone }),
        signupTicket: initial.signupTicket!,
      });
      forgetDetailsState();
      const user = await session.login(res.token);
      navigate(afterDetails(initial.next, user?.role), { replace: true });
    } catch (err) {
      setState(2);
      setError(errorMessage(err));
    }
  }

  return (
    <AuthShell
      title={staff ? 'Welcome to the team' : 'Complete your details'}
      subtitle={
        staff
          ? 'Just your name: customers and the team see it on your messages and work.'
          : 'Just once: we use them for your orders and invoices.'
      }
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        <NameField
          value={name}
          onChange={(value) => {
            setName(value);
            edited();
          }}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          value={email}
          readOnly
          hint="Verified — this is the address you signed in with."
        />
        {!staff && (
          <>
            <PhoneField
              id="details-phone"
              country={country}
              onCountryChange={(c) => {
                setPickedCountry(true);
                setCountry(c);
                edited();
              }}
              digits={phone}
              error={phoneError}
              onDigitsChange={(digits) => {
                setPhone(digits);
                setPhoneError(null);
                edited();
              }}
              onInvalidDigits={() => setPhoneError(PHONE_MESSAGE)}
            />
            <AddressField
              value={address}
              onChange={(value) => {
                setAddress(value);
                edited();
              }}
            />
          </>
        )}
        <FormError>{error}</FormError>
        <Button type="submit" disabled={state === 1} data-state={state} className="min-h-11 w-full">
          {state === 0 && 'Continue'}
          {state === 1 && <Spinner label="Creating your account" />}
          {state === 2 && 'Try again'}
        </Button>
      </form>
    </AuthShell>
  );
}
