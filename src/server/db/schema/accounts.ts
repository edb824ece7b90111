import { boolean, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

// Mirrors migrations/0200_accounts.sql; the SQL file is the source of truth.
const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const providerColumn = (name: string) => text(name, { enum: ['google', 'microsoft'] });

export type SocialProfile = Record<string, string>;

export const loginCodes = pgTable('login_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  purpose: text('purpose', { enum: ['login', 'signup', 'delete'] }).notNull(),
  codeHash: text('code_hash').notNull(),
  salt: text('salt').notNull(),
  ip: text('ip'),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  /** Set when a newer code of the same e-mail retired this one (decision 075). */
  supersededAt: timestamp('superseded_at', { withTimezone: true }),
  createdAt,
});

export const signupTickets = pgTable('signup_tickets', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  email: text('email').notNull(),
  provider: providerColumn('provider'),
  subject: text('subject'),
  name: text('name'),
  profile: jsonb('profile').$type<SocialProfile>(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt,
});

export const identities = pgTable(
  'identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: providerColumn('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    profile: jsonb('profile').$type<SocialProfile>().notNull().default({}),
    createdAt,
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.provider, t.subject)],
);

export const oidcStates = pgTable('oidc_states', {
  stateHash: text('state_hash').primaryKey(),
  browserHash: text('browser_hash').notNull(),
  provider: providerColumn('provider').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  returnTo: text('return_to').notNull(),
  isPricing: boolean('is_pricing').notNull().default(false),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt,
});

export const socialHandoffs = pgTable('social_handoffs', {
  tokenHash: text('token_hash').primaryKey(),
  provider: providerColumn('provider').notNull(),
  subject: text('subject').notNull(),
  email: text('email').notNull(),
  name: text('name'),
  profile: jsonb('profile').$type<SocialProfile>().notNull().default({}),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt,
});
