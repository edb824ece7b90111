import { z } from 'zod';
import { pageInfo, pageQuery } from './admin.ts';

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
