/** The number of things waiting for the customer, beside "Dashboard" and "My Orders" (docs/decisions/213-action-counts.md). */
export function WaitingCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className="ml-1.5 inline-block rounded-full bg-danger px-1.5 text-xs font-bold text-white tabular-nums" data-testid="nav-waiting">
      {count}
      <span className="sr-only"> waiting for you</span>
    </span>
  );
}
