import { z } from 'zod';
import { pageInfo, pageQuery } from './admin.ts';
import { defineOperation } from './operation.ts';
import { funnelQuery } from './funnel.ts';
import { uuidParams } from './admin.ts';
import { taxReturnCsvParams } from './tax-return.ts';

// Back office: leads (landing page e-mail / phone) and contact-form messages.

export const inboxQuery = pageQuery.extend({ status: z.enum(['new', 'handled', 'all']).default('new') });
export type InboxQuery = z.infer<typeof inboxQuery>;
export const csvQuery = z.object({ status: z.enum(['new', 'handled', 'all']).default('all') });

export const adminLead = z.object({
  id: z.string(),
  kind: z.enum(['email', 'phone']),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  page: z.string().nullable(),
  /** First-touch source (decision 097): "newsletter / email / spring" or "via google.com"; null if none. Plain text. */
  source: z.string().nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
});
export type AdminLead = z.infer<typeof adminLead>;

export const adminContact = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  phoneCode: z.string(),
  phoneNumber: z.string(),
  address: z.string(),
  userId: z.string().nullable(),
  /** First-touch source (decision 097): "newsletter / email / spring" or "via google.com"; null if none. Plain text. */
  source: z.string().nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
});
export type AdminContact = z.infer<typeof adminContact>;

export const leadListResponse = z.object({ items: z.array(adminLead), pageInfo });
export type LeadListResponse = z.infer<typeof leadListResponse>;
export const contactListResponse = z.object({ items: z.array(adminContact), pageInfo });
export type ContactListResponse = z.infer<typeof contactListResponse>;

export const handledResponse = z.object({ id: z.string(), handledAt: z.string() });
export const csvResponse = z.string().describe('CSV, UTF-8, one row per entry, header first');

// Operations (docs/decisions/280-contract-operations.md).

/** The funnel as CSV, one row per week and source */
export const getAdminFunnelCsv = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/funnel.csv',
  query: funnelQuery,
  binary: true,
  responses: { 200: csvResponse },
});

/** Leads (e-mail or phone from the landing page), new or handled */
export const getAdminLeads = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/leads',
  query: inboxQuery,
  responses: { 200: leadListResponse },
});

/** Leads as CSV */
export const getAdminLeadsCsv = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/leads.csv',
  query: csvQuery,
  binary: true,
  responses: { 200: csvResponse },
});

/** Mark a lead handled */
export const postAdminLeadsHandled = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/leads/:id/handled',
  params: uuidParams,
  responses: { 200: handledResponse },
});

/** Contact-form messages, new or handled */
export const getAdminContacts = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/contacts',
  query: inboxQuery,
  responses: { 200: contactListResponse },
});

/** Contact messages as CSV */
export const getAdminContactsCsv = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/contacts.csv',
  query: csvQuery,
  binary: true,
  responses: { 200: csvResponse },
});

/** Mark a contact message handled */
export const postAdminContactsHandled = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/contacts/:id/handled',
  params: uuidParams,
  responses: { 200: handledResponse },
});

/** One table of the month's return as CSV, in the column layout of the GST offline tool's template (e.g. b2b.csv) */
export const getAdminTaxReturnsByFile = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/tax/returns/:period/:file',
  params: taxReturnCsvParams,
  binary: true,
  responses: { 200: csvResponse },
});
