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

/** A second successful payment for an installment already paid: it has to be refunded. */
export interface PaymentDuplicate extends OrderRef {
  kind: 'advance' | 'remaining';
  paymentId: string;
  amount: number;
  currency: string;
  paidAt: Date;
}

/** The website link is now the customer's (stage 15 completed). */
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
  fileId: string;
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

export interface DomainEventMap {
  'account.deleted': AccountDeleted;
  'maintenance.charged': MaintenanceCharged;
  'support.message': SupportMessagePosted;
  'support.request': SupportRequestChanged;
  'order.message': OrderMessagePosted;
  'review.opened': ReviewOpened;
  'review.commented': ReviewCommented;
  'review.decided': ReviewDecided;
  'stage.completed': StageCompleted;
  'stage.undone': StageUndone;
  'payment.settled': PaymentSettled;
  'payment.duplicate': PaymentDuplicate;
  'order.delivered': OrderDelivered;
}

export type DomainEventName = keyof DomainEventMap;

export interface DomainEvents {
  /**
   * A reaction that must be atomic with the change (numbering an invoice, planning or cancelling
   * reminders): it runs inside the publisher's transaction, in subscription order, when the event
   * is published; if it throws, the change rolls back with it.
   */
  inTransaction<K extends DomainEventName>(name: K, reaction: (event: DomainEventMap[K], tx: Tx) => Promise<void>): void;
  /**
   * A reaction that may only happen once the change is stored (e-mails): it runs after commit, in
   * publication order, and never if the transaction rolls back. Best effort — an error is logged,
   * not thrown — and idempotent, because the same change may reach it again (a retry, another instance).
   */
  afterCommit<K extends DomainEventName>(name: K, reaction: (event: DomainEventMap[K]) => Promise<void>): void;
  /**
   * Runs `work` in a transaction in which events can be published. After it commits, the queued
   * after-commit reactions run (and are awaited) before this returns.
   */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** A savepoint inside such a transaction: if `work` throws, the after-commit reactions of its events are dropped with it. */
  savepoint<T>(tx: Tx, work: (sp: Tx) => Promise<T>): Promise<T>;
  /** Publishes inside a transaction opened by `transaction()` or `savepoint()`. */
  publish<K extends DomainEventName>(tx: Tx, name: K, event: DomainEventMap[K]): Promise<void>;
}

type Queued = { name: DomainEventName; run: () => Promise<void> };

/** The in-process event registry of one app instance (buildApp creates it; tests build many). */
export function createDomainEvents(db: Db, log: Pick<FastifyBaseLogger, 'error'>): DomainEvents {
  const inTx = new Map<DomainEventName, ((event: never, tx: Tx) => Promise<void>)[]>();
  const afterCommit = new Map<DomainEventName, ((event: never) => Promise<void>)[]>();
  // The after-commit queue of each open transaction or savepoint, found from the `tx` a publisher holds.
  const queues = new WeakMap<Tx, Queued[]>();

  const add = <R>(map: Map<DomainEventName, R[]>, name: DomainEventName, reaction: R) => map.set(name, [...(map.get(name) ?? []), reaction]);

  return {
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
    async publish(tx, name, event) {
      const queue = queues.get(tx);
      // A programming error, caught by any test of the publisher: an event outside a transaction
      // opened here would lose its after-commit reactions or run them before the commit.
      if (!queue) throw new Error(`"${name}" was published outside events.transaction()`);
      for (const reaction of inTx.get(name) ?? []) await reaction(event as never, tx);
      for (const reaction of afterCommit.get(name) ?? []) queue.push({ name, run: () => reaction(event as never) });
    },
  };
}
