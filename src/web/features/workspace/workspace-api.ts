import { api } from '../../lib/api.ts';

// The order workspace is one set of screens for both sides: the customer on
// /status/:id calls /api/v1/orders/{id}/…, the founder on /admin/orders/:id the same routes under
// /api/v1/admin/orders/{id}/… (contract: src/contract/brief.ts, order-files.ts, reviews.ts,
// order-messages.ts). `side` decides which, and what the screens offer (pins vs. answers).

export type Side = 'customer' | 'agency';

export interface Workspace {
  side: Side;
  orderId: string;
  /** The API path of the order's workspace, without /api/v1/ (e.g. `orders/ORD123`). */
  base: string;
}

export function workspaceOf(side: Side, orderId: string): Workspace {
  const order = `orders/${encodeURIComponent(orderId)}`;
  return { side, orderId, base: side === 'agency' ? `admin/${order}` : order };
}

/** A call under the workspace's base path. */
export const call = <T>(ws: Workspace, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
  api<T>(method, `${ws.base}/${path}`, body);

export const filePath = (ws: Workspace, fileId: string) => `${ws.base}/files/${encodeURIComponent(fileId)}`;
