import { z } from 'zod';
import { defineOperation } from './operation.ts';
import { multiLine } from './text-policy.ts';

// The chat console's availability switch and canned replies
// (docs/decisions/347-chat-availability-canned-replies-csat.md).

export const CANNED_LIMITS = { title: 80, text: 2000 } as const;

const title = z
  .string()
  .trim()
  .min(1, 'Give the reply a title.')
  .max(CANNED_LIMITS.title, `A title can be at most ${CANNED_LIMITS.title} characters.`);
const text = multiLine(z.string())
  .trim()
  .min(1, 'Write the reply.')
  .max(CANNED_LIMITS.text, `A reply can be at most ${CANNED_LIMITS.text.toLocaleString('en-US')} characters.`);
/** Typed in the console's composer, then Tab inserts the reply: "/price". */
const shortcut = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^\/[a-z0-9_-]{1,30}$/, 'A shortcut is a slash and 1–30 letters, digits, - or _, e.g. /price.');

export const cannedReply = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  shortcut: z.string(),
  updatedAt: z.string(),
});
export type CannedReply = z.infer<typeof cannedReply>;

export const cannedReplyBody = z.strictObject({ title, text, shortcut });
export const cannedReplyPatch = z
  .strictObject({ title: title.optional(), text: text.optional(), shortcut: shortcut.optional() })
  .refine((b) => Object.keys(b).length > 0, 'Nothing to change.');
export const cannedReplyParams = z.object({ id: z.uuid('Not a canned reply id.') });

/** The canned replies, by shortcut (owner and staff) */
export const getAdminCannedReplies = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/canned-replies',
  responses: { 200: z.object({ replies: z.array(cannedReply) }) },
});

/** Adds a canned reply (owner); 409 when the shortcut is taken */
export const postAdminCannedReplies = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/canned-replies',
  body: cannedReplyBody,
  responses: { 201: z.object({ reply: cannedReply }) },
});

/** Edits a canned reply (owner) */
export const patchAdminCannedRepliesById = defineOperation({
  method: 'PATCH',
  path: '/api/v1/admin/canned-replies/:id',
  params: cannedReplyParams,
  body: cannedReplyPatch,
  responses: { 200: z.object({ reply: cannedReply }) },
});

/** Deletes a canned reply (owner) */
export const deleteAdminCannedRepliesById = defineOperation({
  method: 'DELETE',
  path: '/api/v1/admin/canned-replies/:id',
  params: cannedReplyParams,
  responses: { 200: z.object({ success: z.literal(true) }) },
});

export const chatAvailability = z.object({
  /** The console's switch: "available" (true) or "away". */
  available: z.boolean(),
  /** Within CHAT_BUSINESS_HOURS now. */
  withinHours: z.boolean(),
  /** The business hours as configured, e.g. "Mon-Sat 10:00-19:00 Asia/Kolkata". */
  businessHours: z.string(),
  /** When visitors are told to expect a reply while away or outside the hours (ISO); null while answering. */
  expectReplyAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type ChatAvailability = z.infer<typeof chatAvailability>;

/** The agency's availability in the live chat (owner and staff) */
export const getAdminChatAvailability = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/chat/availability',
  responses: { 200: chatAvailability },
});

/** Sets the agency "available" or "away" in the live chat (owner and staff) */
export const putAdminChatAvailability = defineOperation({
  method: 'PUT',
  path: '/api/v1/admin/chat/availability',
  body: z.strictObject({ available: z.boolean({ message: 'available must be true or false.' }) }),
  responses: { 200: chatAvailability },
});
