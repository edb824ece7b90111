import { getAdminOrdersBrief, getOrdersBrief } from '../../../contract/brief.ts';
import type { AnyOperation, OperationInput } from '../../../contract/operation.ts';
import {
  deleteAdminOrdersFilesByFileId,
  deleteOrdersFilesByFileId,
  getAdminOrdersFiles,
  getAdminOrdersFilesByFileId,
  getOrdersFiles,
  getOrdersFilesByFileId,
  postAdminOrdersFiles,
  postOrdersFiles,
} from '../../../contract/order-files.ts';
import {
  getAdminOrdersMessages,
  getOrdersMessages,
  postAdminOrdersMessages,
  postOrdersMessages,
  type PostOrderMessageBody,
} from '../../../contract/order-messages.ts';
import { getAdminOrdersReviews, getOrdersReviews } from '../../../contract/reviews.ts';
import { postAdminOrdersReviewsSiteLink, postOrdersReviewsSiteLink } from '../../../contract/site-review.ts';
import { getAdminOrdersSupport, getOrdersSupport } from '../../../contract/support.ts';

// The order workspace is one set of screens for both sides: the customer on /status/:id, the
// founder on /admin/orders/:id. Each resource has one contract operation per side
// (docs/decisions/296-workspace-operations.md); `side` picks it, and decides what the screens
// offer (pins vs. answers). Operations of one side only (a decision, opening a round) are called
// directly by the screen that offers them.

export type Side = 'customer' | 'agency';

export interface Workspace {
  side: Side;
  /** The order's public id (ORD…). */
  orderId: string;
}

export const workspaceOf = (side: Side, orderId: string): Workspace => ({ side, orderId });

// The resources whose params are the same on both sides (`:orderId`, …): `MAP[ws.side]`.

export const ORDER_FILES = { customer: getOrdersFiles, agency: getAdminOrdersFiles } as const;
export const ORDER_FILE_UPLOAD = { customer: postOrdersFiles, agency: postAdminOrdersFiles } as const;
/** One file's bytes (`?inline=1` for a checked raster image). */
export const ORDER_FILE = { customer: getOrdersFilesByFileId, agency: getAdminOrdersFilesByFileId } as const;
export const ORDER_FILE_DELETE = { customer: deleteOrdersFilesByFileId, agency: deleteAdminOrdersFilesByFileId } as const;
export const REVIEWS = { customer: getOrdersReviews, agency: getAdminOrdersReviews } as const;
export const SITE_LINK = { customer: postOrdersReviewsSiteLink, agency: postAdminOrdersReviewsSiteLink } as const;

/** One call: an operation with its input, made together so that they match. */
export interface OperationCall<Op extends AnyOperation> {
  op: Op;
  input: OperationInput<Op>;
}
const request = <Op extends AnyOperation>(op: Op, input: OperationInput<Op>): OperationCall<Op> => ({ op, input });

// The brief, the thread and support name the order `:id` on the founder's paths (like every other
// /admin/orders/:id route) and `:orderId` on the customer's: each side's operation with its input.

export const briefRead = (ws: Workspace) =>
  ws.side === 'agency'
    ? request(getAdminOrdersBrief, { params: { id: ws.orderId } })
    : request(getOrdersBrief, { params: { orderId: ws.orderId } });

/** The thread's newest page, or with `before` the page written before that message (docs/decisions/341-one-rule-per-derived-value.md). */
export const messagesRead = (ws: Workspace, before?: string) => {
  const query = before === undefined ? undefined : { before };
  return ws.side === 'agency'
    ? request(getAdminOrdersMessages, { params: { id: ws.orderId }, query })
    : request(getOrdersMessages, { params: { orderId: ws.orderId }, query });
};

export const messageSend = (ws: Workspace, body: PostOrderMessageBody) =>
  ws.side === 'agency'
    ? request(postAdminOrdersMessages, { params: { id: ws.orderId }, body })
    : request(postOrdersMessages, { params: { orderId: ws.orderId }, body });

export const supportRead = (ws: Workspace) =>
  ws.side === 'agency'
    ? request(getAdminOrdersSupport, { params: { id: ws.orderId } })
    : request(getOrdersSupport, { params: { orderId: ws.orderId } });
