import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Mailer } from './features/mail/mailer.ts';
import type { AppMetrics } from './features/metrics/metrics.ts';
import type { Revocations } from './features/auth/revocations.ts';
import type { InvalidationBus } from './lib/invalidation-bus.ts';
import type { VersionedAnswers } from './lib/versioned-answers.ts';
import type { FileStorage } from './integrations/storage/file-storage.ts';
import type { DomainEvents } from './lib/domain-events.ts';
import type { JobQueue } from './features/jobs/job-queue.ts';
import type { FileApprovedCheck, FileInUseCheck } from './features/order-files/file-in-use.ts';
import type { SupportExtensionQuery } from './features/support/support-window.ts';
import type { Resolve } from './features/site-care/address-policy.ts';

/**
 * Questions one feature asks and others answer. Each answering feature adds its answer once, at
 * build time, from its subscriptions.ts — never into a module-level registry filled at import.
 */
export interface AppQueries {
  /** Why an order file cannot be deleted (a review round, a message, a support request uses it). */
  fileInUse: FileInUseCheck[];
  /** Whether an order file is part of an approval record (an approved design round): kept as its hash when its uploader's account goes. */
  fileApproved: FileApprovedCheck[];
  /**
   * `exists (…)` in SQL: whether the order `orderIdSql` has notices `order.seen` of `what` would mark
   * read for `side` (set by the notices feature). A read publishes `order.seen` only then
   * (docs/decisions/285-signed-in-read-path.md); unset, it always publishes.
   */
  unseenNoticesSql?: (side: 'customer' | 'agency', what: 'stages' | 'reviews', orderIdSql: string) => string;
  /**
   * What extends an order's support window past the included days (set by the maintenance feature:
   * its paid plan). Unset, support is the included days only, with no plan
   * (docs/decisions/315-support-extension-on-deps.md).
   */
  supportExtension?: SupportExtensionQuery;
}

/** What features receive from buildApp: passed explicitly, never hidden in decorators. */
export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  /** Tells every instance to drop a cached value (src/server/lib/invalidation-bus.ts). */
  bus: InvalidationBus;
  log: FastifyBaseLogger;
  /** Prometheus instruments; undefined when /metrics is off (docs/decisions/065). */
  metrics?: AppMetrics;
  /** The order's events and their subscribers; publish inside `events.transaction()` (decision 100). */
  events: DomainEvents;
  /** Stored follow-up work: written in a change's transaction, run by the job pass (features/jobs/job-queue.ts). */
  jobs: JobQueue;
  queries: AppQueries;
  /**
   * The signed-in reads' kept answers, one store for all of them, bounded by READ_CACHE_MB and
   * evicted least recently used (lib/versioned-answers.ts, docs/decisions/341-one-rule-per-derived-value.md).
   */
  answers: VersionedAnswers;
  /** Session revocations, for what outlives a request (live chat sockets). */
  revocations: Revocations;
  /** Where order files' bytes live: a local folder or S3 (integrations/storage, decision 140). */
  fileStorage: FileStorage;
  /** How site checks resolve host names (features/site-care/address-policy.ts); unset: the system's resolver. */
  siteCareResolve?: Resolve;
}
