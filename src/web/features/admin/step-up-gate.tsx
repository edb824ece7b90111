import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { onStepUpRequired } from '../../lib/step-up-signal.ts';
import { StepUpScreen } from './step-up-screen.tsx';

/**
 * Around the back office and the chat console (decision 194): when any admin call or socket event
 * answers 403 STEP_UP_REQUIRED, the page gives way to the step-up screen (its calls and timers
 * stop with it); once the session is confirmed, the page the founder was on mounts again and
 * loads its data afresh.
 */
export function StepUpGate({ children }: { children: ReactNode }) {
  const [needed, setNeeded] = useState(false);
  const [round, setRound] = useState(0);
  useEffect(() => onStepUpRequired(() => setNeeded(true)), []);
  if (needed)
    return (
      <StepUpScreen
        onConfirmed={() => {
          setNeeded(false);
          setRound((r) => r + 1);
        }}
      />
    );
  return <Fragment key={round}>{children}</Fragment>;
}
