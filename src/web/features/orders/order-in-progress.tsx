import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { OrderSummary } from '../../../contract/orders.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';

// Ordering a second website while one is paid and not delivered is allowed, but is most often a
// second tab or a double click: the advance form asks first (docs/decisions/273-second-order-question.md).

/**
 * The newest of the customer's orders (the My Orders read, getOrderGetAllOrdersUser) whose advance is
 * paid and that is not delivered yet, or null.
 */
export function findOrderInProgress(orders: readonly OrderSummary[]): string | null {
  // Delivered orders have a support window (`supportUntil`); an unpaid checkout is nobody's order yet.
  const open = orders.filter((o) => o.advance.state === 'paid' && o.supportUntil === null);
  return open.sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]?.order_id ?? null;
}

/** "You already have order ORD… in progress — open it, or order another website?" */
export function OrderInProgressQuestion({ orderId, onOrderAnother }: { orderId: string; onOrderAnother(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Shown in place of the form (maybe right after Pay was pressed): focus moves to the question.
  useEffect(() => heading.current?.focus(), [orderId]);
  return (
    <div
      className="flex flex-col gap-4 rounded-2xl border border-amber-400/60 bg-card p-6"
      role="group"
      aria-labelledby="order-in-progress-heading"
      data-testid="order-in-progress"
    >
      <h2 id="order-in-progress-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold text-white outline-none">
        You already have order <span className="whitespace-nowrap font-mono">{orderId}</span> in progress — open it, or order another
        website?
      </h2>
      <p className="text-ink">Its advance is paid and we are working on it. A second order is a second website, with its own advance.</p>
      <div className="flex flex-col gap-3 sm:flex-row">
        <Link to={`/status/${encodeURIComponent(orderId)}`} className={buttonClass('primary', 'whitespace-nowrap')} data-primary-action>
          Open order {orderId}
        </Link>
        <Button variant="secondary" className="whitespace-nowrap" onClick={onOrderAnother}>
          Order another website
        </Button>
      </div>
    </div>
  );
}
