import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.tsx';
import { exchangeHandoff } from './auth-api.ts';
import { afterSignIn, rememberDetailsState, type AuthRouteState } from './auth-state.ts';

export type SocialReturn = { status: 'idle' | 'working' | 'signed-in' } | { status: 'error'; message: string };

/**
 * Finishes a Google/Microsoft round trip on the page it returned to: the server left a one-time
 * `#handoff` (or an `#error`) in the fragment. A known account is signed in and sent on (spec §4
 * "Social sign-in"); a new one goes to enterDetails with name and e-mail prefilled.
 * `stay` keeps the user on this page after sign-in (the demo pages).
 */
export function useSocialReturn(options: { next?: (isPricing: boolean) => string; stay?: boolean } = {}): SocialReturn {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const [state, setState] = useState<SocialReturn>({ status: 'idle' });
  const started = useRef(false);
  const { next, stay } = options;

  useEffect(() => {
    if (started.current || !location.hash) return;
    const params = new URLSearchParams(location.hash.slice(1));
    const handoff = params.get('handoff');
    const error = params.get('error');
    if (!handoff && !error) return;
    started.current = true;
    // Drop the one-time value from the address bar and history.
    navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: location.state });
    if (error) {
      setState({ status: 'error', message: error.slice(0, 300) });
      return;
    }
    const isPricing = params.get('isPricing') === '1';
    setState({ status: 'working' });
    exchangeHandoff(handoff!)
      .then(async (res) => {
        if (res.token) {
          const user = await session.login(res.token);
          setState({ status: 'signed-in' });
          if (!stay) navigate(next ? next(isPricing) : afterSignIn(isPricing, user?.role), { replace: true });
          return;
        }
        const details: AuthRouteState = {
          email_pass: res.email,
          name_pass: res.name,
          signupTicket: res.signupTicket,
          isPricing,
          next: next ? next(isPricing) : afterSignIn(isPricing),
          ...(res.invitedStaff ? { staff: true } : {}),
        };
        rememberDetailsState(details);
        navigate('/signup/enterDetails', { state: details });
      })
      .catch((err) => setState({ status: 'error', message: errorMessage(err) }));
  }, [location, navigate, session, next, stay]);

  return state;
}
