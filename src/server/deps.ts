import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Mailer } from './features/mail/mailer.ts';

/** What features receive from buildApp: passed explicitly, never hidden in decorators. */
export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
}
