import { useCallback, useState } from 'react';
import { errorMessage } from './api.ts';

/**
 * One request at a time for a form or dialog: `busy` while it runs (buttons disable), its failure
 * as one sentence in `error`. `describe` may word particular failures (a 409's meaning) itself.
 */
export function useBusyAction(describe: (err: unknown) => string = errorMessage) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (action: () => Promise<void>) => {
      setBusy(true);
      setError(null);
      try {
        await action();
      } catch (err) {
        setError(describe(err));
      } finally {
        setBusy(false);
      }
    },
    [describe],
  );
  return { busy, error, setError, run };
}
