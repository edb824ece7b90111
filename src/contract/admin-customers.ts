import { z } from 'zod';
import { USER_ROLES } from '../domain/roles.ts';
import { pageInfo, pageQuery } from './admin.ts';
import { defineOperation } from './operation.ts';
import { uuidParams } from './admin.ts';

export const customerListQuery = pageQuery.extend({ q: z.string().trim().max(200).optional() });
export type CustomerListQuery = z.infer<typeof customerListQuery>;

export const customerRow = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.enum(USER_ROLES),
  createdAt: z.string(),
  orders: z.number(),
  activeSessions: z.number(),
});
export type CustomerRow = z.infer<typeof customerRow>;

export const customerListResponse = z.object({ items: z.array(customerRow), pageInfo });
export type CustomerListResponse = z.infer<typeof customerListResponse>;

export const customerOrder = z.object({
  id: z.string(),
  createdAt: z.string(),
  currency: z.string(),
  totalMinor: z.number(),
  completedStages: z.number(),
  /** End of the support window (ISO), including a plan's extension; null until delivered. */
  supportUntil: z.string().nullable(),
});

export const customerConversation = z.object({
  id: z.string(),
  state: z.string(),
  createdAt: z.string(),
  messages: z.number(),
});

export const customerSession = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  userAgent: z.string().nullable(),
});

export const customerDetailResponse = z.object({
  customer: z.object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    phoneCode: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    address: z.string().nullable(),
    role: z.enum(USER_ROLES),
    createdAt: z.string(),
    /** First-touch source (decision 097): "newsletter / email / spring" or "via google.com"; null if none. Plain text. */
    source: z.string().nullable(),
  }),
  /** 'email' (one-time code) always; 'google' / 'microsoft' when linked. */
  signInMethods: z.array(z.string()),
  sessions: z.array(customerSession),
  orders: z.array(customerOrder),
  conversations: z.array(customerConversation),
});
export type CustomerDetailResponse = z.infer<typeof customerDetailResponse>;

export const revokeSessionsResponse = z.object({ success: z.literal(true), revoked: z.number() });

// Operations (docs/decisions/280-contract-operations.md).

/** Customers, newest first, searchable by e-mail or name */
export const getAdminCustomers = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/customers',
  query: customerListQuery,
  responses: { 200: customerListResponse },
});

/** One customer: profile, sign-in methods, sessions, orders, conversations */
export const getAdminCustomersById = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/customers/:id',
  params: uuidParams,
  responses: { 200: customerDetailResponse },
});

/** End all of a customer's sessions */
export const postAdminCustomersSessionsRevoke = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/customers/:id/sessions/revoke',
  params: uuidParams,
  responses: { 200: revokeSessionsResponse },
});
