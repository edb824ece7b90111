import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client.ts';

// The order's life as events (decision 100). The feature that owns a change publishes
// it; features that react subscribe from their own `subscriptions.ts`, wired once in app.ts. So a
// publisher never imports its subscribers: the tracker does not know that reminders are planned
// when Launch Readiness is done, settling a payment does not know that an invoice is numbered.

/** What every order event names: the order (internal id for queries, public id for people) and its customer. */
export interface OrderRef {
  orderId: string;
  orderPublicId: string;
  customerEmail: string;
}

/** A tracker stage was completed — by the founder, or by a payment (stages 1 and 14, and 15 with it). */
export interface StageCompleted extends OrderRef {
  stage: number;
  at: Date;
  /** The customer-visible note, if any. */
  note: string | null;
}

/** The founder took back the last stage (never a payment stage). */
export interface StageUndone extends OrderRef {
  stage: number;
}

/** An installment was captured and is now paid: money moved. */
export interface PaymentSettled extends OrderRef {
  kind: 'advance' | 'remaining';
  installmentId: string;
  paymentId: string;
  /** In minor units of `currency`. */
  amount: number;
  currency: string;
  paidAt: Date;
}

/**
 * The settled payment's invoice was issued, in the settling transaction (invoices). A second event
 * rather than a second subscriber of payment.settled, so that the receipt, which carries the
 * invoice, does not depend on the order in which subscribers were registered.
 */
export interface PaymentInvoiced extends PaymentSettled {
  invoiceId: string;
  invoiceNumber: string;
}

/**
 * Someone on one side of an order looked at a part of it in the app (its stages, its design
 * reviews): what they saw need not be mailed to them (notices mark it read).
 */
export interface OrderSeen {
  orderId: string;
  side: 'customer' | 'agency';
  /** `order`: the back office opened the order (its tab badges show a submitted brief and new files). */
  what: 'stages' | 'reviews' | 'changes' | 'order' | 'files';
  at: Date;
}

/**
 * A payment that must be refunded: a second successful payment for an installment already paid, or
 * the payment of a change that was declined, withdrawn or re-quoted while its checkout was open.
 */
export interface PaymentDuplicate extends OrderRef {
  kind: 'advance' | 'remaining' | 'change';
  paymentId: string;
  amount: number;
  currency: string;
  paidAt: Date;
  /** Set when its refund was stored with it, to be asked of the provider after the commit (docs/decisions/332-change-quote-version.md). */
  refundId?: string;
}

/**
 * A change request was raised or moved (docs/decisions/250-change-requests.md): its new state.
 * `quoted` waits for the customer, `requested` for the agency; the others wait for nobody.
 */
export interface ChangeUpdated extends OrderRef {
  changeId: string;
  title: string;
  state: 'requested' | 'quoted' | 'accepted' | 'declined' | 'withdrawn' | 'included';
  /** Whose move this was: the customer's (asked, declined, withdrew) or the agency's. */
  by: 'customer' | 'agency';
  amount: number | null;
  currency: string;
  extraDays: number;
  at: Date;
}

/**
 * A change's payment was captured (settled like an installment, kind 'change'): the change is
 * accepted, the delivery moves by its days, a document is issued and the receipt mailed (subscribers).
 */
export interface ChangePaid extends OrderRef {
  changeId: string;
  title: string;
  installmentId: string;
  paymentId: string;
  /** In minor units of `currency`, tax excluded as quoted. */
  amount: number;
  currency: string;
  extraDays: number;
  paidAt: Date;
  /** Taken with a test key: its document is in the TEST series (decision 120). */
  testMode: boolean;
}

/** A maintenance charge's tax invoice is issued (the receipt mail carries it: docs/decisions/268-maintenance-charge-receipts.md). */
export interface MaintenanceInvoiced extends MaintenanceCharged {
  invoiceId: string;
  invoiceNumber: string;
}

/**
 * A paid change is now accepted and the delivery has moved (changes, in the settling transaction,
 * after `change.paid`): its document is issued on this event, so it always documents an accepted
 * change whatever order the subscribers were registered in.
 */
export type ChangeAccepted = ChangePaid;

/** A paid change's document was issued in the settling transaction (invoices): its receipt follows this event. */
export interface ChangeInvoiced extends ChangeAccepted {
  invoiceId: string;
  invoiceNumber: string;
}

/** The website link is now the customer's (stage 15 completed). Published by the tracker only. */
export interface OrderDelivered extends OrderRef {
  deliveryUrl: string;
  at: Date;
}

/** What every design-review event names besides the order (decision 150). */
export interface ReviewRef extends OrderRef {
  reviewId: string;
  kind: 'ui' | 'final';
  round: number;
  title: string;
}

/** The founder opened a review round on files of the order: the customer has something to look at. */
export interface ReviewOpened extends ReviewRef {
  fileIds: string[];
  previewUrl: string | null;
  openedByUserId: string;
  at: Date;
}

/** A pin or an answer on a round. The text goes only to the order's people (a notice may quote it). */
export interface ReviewCommented extends ReviewRef {
  commentId: string;
  author: 'customer' | 'agency';
  authorUserId: string;
  /** Null for a pin on the live site (decision 241). */
  fileId: string | null;
  replyTo: string | null;
  text: string;
  at: Date;
}

/**
 * The customer decided a round (once). An approval of a `ui` round sets the delivery date and
 * completes "UI Review" when its turn has come; of a `final` round, "Final Review" (subscribers).
 */
export interface ReviewDecided extends ReviewRef {
  decision: 'approve' | 'request_changes';
  comment: string | null;
  decidedByUserId: string;
  fileIds: string[];
  at: Date;
}

/** A message was added to an order's thread. Its text goes only to the order's people. */
export interface OrderMessagePosted extends OrderRef {
  messageId: string;
  sender: 'customer' | 'agency';
  senderUserId: string;
  text: string;
  fileIds: string[];
  at: Date;
}

/** What every support event names besides the order (decision 170). */
export interface SupportRef extends OrderRef {
  requestId: string;
  title: string;
}

/** A request has waited past SUPPORT_FIRST_RESPONSE_HOURS for the agency's answer (announced once per wait). */
export interface SupportOverdue extends SupportRef {
  waitingSince: Date;
  at: Date;
}

/** A message on a support request. Its text goes only to the order's people. */
export interface SupportMessagePosted extends SupportRef {
  messageId: string;
  sender: 'customer' | 'agency';
  senderUserId: string;
  text: string;
  fileIds: string[];
  at: Date;
}

/** A support request was opened or changed state (by its customer, the founder, or the auto-close job). */
export interface SupportRequestChanged extends SupportRef {
  category: 'bug' | 'change' | 'question';
  state: 'open' | 'in_progress' | 'resolved' | 'closed';
  /** The state before; null when the request was just opened. */
  from: 'open' | 'in_progress' | 'resolved' | 'closed' | null;
  by: 'customer' | 'agency' | 'job';
  createdAt: Date;
  lastMessageAt: Date;
  at: Date;
}

/** A maintenance-plan charge was captured: money moved for one paid month. */
export interface MaintenanceCharged extends OrderRef {
  chargeId: string;
  subscriptionId: string;
  paymentId: string;
  /** In minor units of `currency`. */
  amount: number;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
  paidAt: Date;
  /** Taken with a test key: invoiced in the TEST series (decision 120). */
  testMode: boolean;
  /**
   * The plan's price before tax (docs/decisions/322-maintenance-plan-gst.md): the invoice splits the
   * month's tax from it when the amount is its quote's total; a plan charged its price flat has
   * price = amount, and its tax is inside the amount.
   */
  price: number;
}

/** The customer submitted the order's brief for the first time (docs/decisions/277-founder-notices-brief-and-files.md). */
export interface BriefSubmitted {
  orderId: string;
  orderPublicId: string;
  at: Date;
}

/** A file was added to the order's files, by the customer or the agency. */
export interface OrderFileUploaded {
  orderId: string;
  orderPublicId: string;
  fileId: string;
  uploadedBy: 'customer' | 'agency';
  at: Date;
}

/**
 * A person deleted their account (decision 192). Published in the transaction that
 * anonymises the users row: each feature erases or anonymises its own part in the same transaction
 * (`email` is the address before the deletion, to find what was kept by address; never stored again).
 */
export interface AccountDeleted {
  userId: string;
  email: string;
  at: Date;
}

/**
 * The owner cancelled an order (payments' cancel, docs/decisions/321-cancel-and-refund.md). The
 * ledger writes off what was charged and not paid: nothing more is due. Refunds asked with the
 * cancel follow as `refund.recorded` once the money has moved back.
 */
export interface OrderCancelled extends OrderRef {
  reason: string;
  /** What the owner chose to refund, in minor units of `currency` (0: nothing). */
  refundAmount: number;
  currency: string;
  byUserId: string;
  at: Date;
}

/**
 * Money went back to the customer (a refund processed: asked in the app, made in Razorpay's
 * dashboard, a duplicate payment, or recorded by hand). Published once per refund, in the
 * transaction that records it as processed; the ledger posts the refund and, when a document was
 * issued for it (a refund voucher or a credit note), that document's credit.
 */
export interface RefundRecorded extends OrderRef {
  refundId: string;
  /** The provider's refund id (rfnd_…), or the reference typed for a refund recorded by hand. */
  providerRefundId: string | null;
  providerPaymentId: string;
  origin: 'cancel' | 'duplicate' | 'dashboard' | 'manual';
  /** In minor units of `currency` (the order's). */
  amount: number;
  currency: string;
  testMode: boolean;
  /** The refund voucher or credit note issued for it; null for a duplicate payment (never documented). */
  document: { id: string; number: string } | null;
  at: Date;
}

/**
 * A visitor wrote to a person in the live chat (the human tab), published once per chat and
 * instance by the chat's socket handlers: the agency is told at once (push, docs/decisions/343-web-push.md).
 */
export interface ChatHumanAsked {
  chatId: string;
  at: Date;
}

/** A watched site went down (site care, in the transaction that records the incident and mails it). */
export interface SiteWentDown {
  orderId: string;
  orderPublicId: string;
  url: string;
  /** The customer has not switched the site's incident notices off. */
  customerNotices: boolean;
  at: Date;
}

/** The remaining payment is due, or a reminder of it was mailed (reminders). */
export interface PaymentDue extends OrderRef {
  reminderId: string;
  /** Formatted for people, e.g. "₹ 8,000.00". */
  amountText: string;
  at: Date;
}

export interface DomainEventMap {
  'chat.human': ChatHumanAsked;
  'site.down': SiteWentDown;
  'payment.due': PaymentDue;
  'account.deleted': AccountDeleted;
  'maintenance.charged': MaintenanceCharged;
  'maintenance.invoiced': MaintenanceInvoiced;
  'support.message': SupportMessagePosted;
  'support.request': SupportRequestChanged;
  'support.overdue': SupportOverdue;
  'order.message': OrderMessagePosted;
  'review.opened': ReviewOpened;
  'review.commented': ReviewCommented;
  'review.decided': ReviewDecided;
  'stage.completed': StageCompleted;
  'stage.undone': StageUndone;
  'payment.settled': PaymentSettled;
  'payment.duplicate': PaymentDuplicate;
  'payment.invoiced': PaymentInvoiced;
  'order.seen': OrderSeen;
  'brief.submitted': BriefSubmitted;
  'file.uploaded': OrderFileUploaded;
  'order.delivered': OrderDelivered;
  'change.updated': ChangeUpdated;
  'change.paid': ChangePaid;
  'change.accepted': ChangeAccepted;
  'change.invoiced': ChangeInvoiced;
  'order.cancelled': OrderCancelled;
  'refund.recorded': RefundRecorded;
}

export type DomainEventName = keyof DomainEventMap;

export interface DomainEvents {
  /**
   * A reaction that must happen because of the change: it runs inside the publisher's
   * transaction when the event is published, and if it throws, the change rolls back with it.
   * A mail is queued here (`mailer.enqueue(tx, …)`), slow or fallible work is stored as a job
   * (`jobs.enqueue(tx, …)`), so a crash after the commit loses neither (docs/architecture.md,
   * "Events and jobs"). Reactions must not depend on one another's order: where one needs another's
   * result, that one publishes a second event (invoices publish `payment.invoiced`).
   */
  inTransaction<K extends DomainEventName>(name: K, reaction: (event: DomainEventMap[K], tx: Tx) => Promise<void>): void;
  /**
   * Only for what may be lost without harm — a socket broadcast, a cache drop. It runs after the
   * commit, and never if the transaction rolls back. Nothing retries it: an error is logged, and a
   * crash between the commit and this reaction loses it for good. Anything that must happen is an
   * in-transaction reaction instead.
   */
  afterCommit<K extends DomainEventName>(name: K, reaction: (event: DomainEventMap[K]) => Promise<void>): void;
  /**
   * Runs `work` in a transaction in which events can be published. After it commits, `onCommit`
   * runs (it wakes the mail and job workers) and the queued after-commit reactions run before this returns.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** A savepoint inside such a transaction: if `work` throws, the after-commit reactions of its events are dropped with it. */
  savepoint<T>(tx: Tx, work: (sp: Tx) => Promise<T>): Promise<T>;
  /** Publishes inside a transaction opened by `transaction()` or `savepoint()`. */
  publish<K extends DomainEventName>(tx: Tx, name: K, event: DomainEventMap[K]): Promise<void>;
  /** Publishes an event that is a change of its own (a read noted) in a transaction of its own. */
  publishAlone<K extends DomainEventName>(name: K, event: DomainEventMap[K]): Promise<void>;
}

type Queued = { name: DomainEventName; run: () => Promise<void> };

/** The in-process event registry of one app instance (buildApp creates it; tests build many). */
export function createDomainEvents(db: Db, log: Pick<FastifyBaseLogger, 'error'>, onCommit: () => void = () => {}): DomainEvents {
  const inTx = new Map<DomainEventName, ((event: never, tx: Tx) => Promise<void>)[]>();
  const afterCommit = new Map<DomainEventName, ((event: never) => Promise<void>)[]>();
  // The after-commit queue of each open transaction or savepoint, found from the `tx` a publisher holds.
  const queues = new WeakMap<Tx, Queued[]>();

  const add = <R>(map: Map<DomainEventName, R[]>, name: DomainEventName, reaction: R) =>
    map.set(name, [...(map.get(name) ?? []), reaction]);

  const events: DomainEvents = {
    inTransaction(name, reaction) {
      add(inTx, name, reaction as (event: never, tx: Tx) => Promise<void>);
    },
    afterCommit(name, reaction) {
      add(afterCommit, name, reaction as (event: never) => Promise<void>);
    },
    async transaction(work) {
      const queue: Queued[] = [];
      const result = await db.transaction(async (tx) => {
        queues.set(tx, queue);
        return work(tx);
      });
      onCommit();
      for (const q of queue) await q.run().catch((err: unknown) => log.error({ err, event: q.name }, 'an after-commit reaction failed'));
      return result;
    },
    async savepoint(tx, work) {
      const outer = queues.get(tx);
      if (!outer) throw new Error('savepoint() needs a transaction opened by events.transaction()');
      const queue: Queued[] = [];
      const result = await tx.transaction(async (sp) => {
        queues.set(sp, queue);
        return work(sp);
      });
      outer.push(...queue);
      return result;
    },
    async publishAlone(name, event) {
      await events.transaction((tx) => events.publish(tx, name, event));
    },
    async publish(tx, name, event) {
      const queue = queues.get(tx);
      // A programming error, caught by any test of the publisher: an event outside a transaction
      // opened here would lose its after-commit reactions or run them before the commit.
      if (!queue) throw new Error(`"${name}" was published outside events.transaction()`);
      for (const reaction of inTx.get(name) ?? []) await reaction(event as never, tx);
      for (const reaction of afterCommit.get(name) ?? []) queue.push({ name, run: () => reaction(event as never) });
    },
  };
  return events;
}
