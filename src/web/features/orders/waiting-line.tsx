import { Link } from 'react-router';
import type { OrderActions } from '../../../contract/actions.ts';
import { WAITING_TAB, waitingWords } from '../../lib/order-actions.ts';

/**
 * Under an order in My Orders: the stage being worked on, and each thing waiting for the customer
 * as a link to the tab where it is done (docs/decisions/213-action-counts.md).
 */
export function WaitingLine({ actions }: { actions: OrderActions | undefined }) {
  if (!actions) return null;
  const page = `/status/${encodeURIComponent(actions.orderId)}`;
  // Unread replies have their own "N new messages" link beside it.
  const waiting = actions.waiting.filter((w) => w.kind !== 'reply');
  return (
    <div className="mt-1 flex flex-col gap-1 text-sm" data-testid="order-waiting">
      <span className="text-muted">
        Now: <span className="text-ink">{actions.stageName}</span>
      </span>
      {waiting.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label={`Waiting for you on ${actions.orderId}`}>
          {waiting.map((w) => (
            <li key={w.kind}>
              <Link
                to={WAITING_TAB[w.kind] === 'progress' ? page : `${page}?tab=${WAITING_TAB[w.kind]}`}
                className="inline-flex min-h-8 items-center rounded-full border border-amber-300/60 bg-amber-300/10 px-2.5 text-xs
                  font-medium text-amber-200 hover:border-amber-300"
              >
                {waitingWords(w.kind, w.count)}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
