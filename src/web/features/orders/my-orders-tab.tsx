// The dashboard's My Orders tab (issue "Orders and money"); placeholder until then.
export function MyOrdersTab() {
  return <p className="text-muted">You have no orders yet.</p>;
}
