// The back office's step-up (decision 194): any admin call or socket event may
// answer 403 STEP_UP_REQUIRED. The API client and the chat console report it here, and the one
// gate around the back office listens, so no page has to know about it.

export const STEP_UP_REQUIRED = 'STEP_UP_REQUIRED';

const target = new EventTarget();
const EVENT = 'step-up-required';

export function signalStepUpRequired() {
  target.dispatchEvent(new Event(EVENT));
}

/** Calls `listener` whenever the server asked for the step-up; returns the unsubscribe. */
export function onStepUpRequired(listener: () => void): () => void {
  target.addEventListener(EVENT, listener);
  return () => target.removeEventListener(EVENT, listener);
}
