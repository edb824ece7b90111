import { z } from 'zod';
import { successResponse } from './auth.ts';
import { defineOperation } from './operation.ts';

// Who hears of what, and how (docs/decisions/342-notification-preferences.md): each person chooses,
// per kind of notice and per channel, on or off, and keeps quiet hours in their own time zone.
// The kind names are shared by every channel's sender (e-mail batches, Web Push, WhatsApp).

/** Every kind of notice a person can be sent. The names are fixed: stored rows and senders use them. */
export const NOTICE_KINDS = [
  'chat_human',
  'order_paid',
  'customer_message',
  'review_decided',
  'support_request',
  'site_down',
  'agency_reply',
  'review_opened',
  'stage_completed',
  'change_quoted',
  'payment_due',
  'payment_receipt',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const NOTICE_CHANNELS = ['email', 'push', 'whatsapp'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

/** What the agency (owner and staff) hears of. */
export const AGENCY_NOTICE_KINDS = [
  'chat_human',
  'order_paid',
  'customer_message',
  'review_decided',
  'support_request',
  'site_down',
] as const satisfies readonly NoticeKind[];
/** What a customer hears of. */
export const CUSTOMER_NOTICE_KINDS = [
  'agency_reply',
  'review_opened',
  'stage_completed',
  'change_quoted',
  'payment_due',
  'payment_receipt',
  'site_down',
] as const satisfies readonly NoticeKind[];

/** The words a settings screen shows for each kind. */
export const NOTICE_KIND_LABELS: Record<NoticeKind, string> = {
  chat_human: 'A visitor asks for a person in the live chat',
  order_paid: 'An order is paid',
  customer_message: 'A customer sends a message or a file',
  review_decided: 'A customer decides a design review',
  support_request: 'A new support request',
  site_down: 'A website is down',
  agency_reply: 'The team replies',
  review_opened: 'A design review is ready for you',
  stage_completed: 'A stage of your order is completed',
  change_quoted: 'A change is quoted',
  payment_due: 'A payment is due',
  payment_receipt: 'A payment receipt',
};

export const NOTICE_CHANNEL_LABELS: Record<NoticeChannel, string> = { email: 'E-mail', push: 'Push', whatsapp: 'WhatsApp' };

/** "HH:MM", 24-hour clock. */
export const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Expected a time as HH:MM (24-hour clock).');

/** Whether `tz` is an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneName = z.string().min(1).max(64).refine(isTimeZone, 'Unknown time zone: use an IANA name such as Asia/Kolkata.');

/**
 * Quiet hours: from `start` to `end` (across midnight when end < start) in `timeZone`, no push and
 * no WhatsApp message (e-mail is not held back). `start` equal to `end` means no quiet hours.
 */
export const quietHours = z.object({ start: clockTime, end: clockTime, timeZone: timeZoneName }).strict();
export type QuietHours = z.infer<typeof quietHours>;

const kindFlags = z.object(Object.fromEntries(NOTICE_KINDS.map((k) => [k, z.boolean()])) as Record<NoticeKind, z.ZodBoolean>).strict();
const kindFlagsPartial = kindFlags.partial().strict();

/** GET: every kind for every channel. */
export const notificationPreferences = z.object({
  channels: z.object({ email: kindFlags, push: kindFlags, whatsapp: kindFlags }),
  quietHours,
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

/**
 * PUT: the same shape; a kind or channel left out keeps its value, an unknown kind or channel is
 * refused (400).
 */
export const notificationPreferencesBody = z
  .object({
    channels: z
      .object({ email: kindFlagsPartial.optional(), push: kindFlagsPartial.optional(), whatsapp: kindFlagsPartial.optional() })
      .strict()
      .optional(),
    quietHours: quietHours.optional(),
  })
  .strict();
export type NotificationPreferencesBody = z.input<typeof notificationPreferencesBody>;

// Web Push (docs/decisions/343-web-push.md).

export const DEVICE_NAME_MAX = 60;
const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'Expected base64url.');

export const pushKeyResponse = z.object({ publicKey: z.string() });

export const pushSubscriptionBody = z
  .object({
    endpoint: z
      .string()
      .max(2000)
      .url()
      .refine((u) => u.startsWith('https://'), 'The push endpoint must be an https URL.'),
    keys: z.object({ p256dh: b64url(200), auth: b64url(100) }),
    deviceName: z.string().trim().min(1).max(DEVICE_NAME_MAX).optional(),
  })
  .strict();
export type PushSubscriptionBody = z.input<typeof pushSubscriptionBody>;

export const pushSubscriptionCreated = z.object({ id: z.string() });

export const pushDevice = z.object({
  id: z.string(),
  deviceName: z.string(),
  /** Only the push service's host: the full endpoint is a capability. */
  service: z.string(),
  createdAt: z.string(),
  lastSentAt: z.string().nullable(),
});
export type PushDevice = z.infer<typeof pushDevice>;
export const pushDeviceList = z.object({ subscriptions: z.array(pushDevice) });

export const pushSubscriptionParams = z.object({ id: z.uuid('Unknown subscription.') });

/** What the service worker receives (the encrypted payload's JSON): a short summary and a link, never a message's text. */
export const pushPayload = z.object({
  kind: z.enum(NOTICE_KINDS),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string().optional(),
});
export type PushPayload = z.infer<typeof pushPayload>;

// Operations (docs/decisions/280-contract-operations.md).

/** The VAPID public key the browser subscribes with */
export const getPushKey = defineOperation({
  method: 'GET',
  path: '/api/v1/push/key',
  responses: { 200: pushKeyResponse },
});

/** Allow push on this device: store the browser's push subscription with a device name */
export const postPushSubscriptions = defineOperation({
  method: 'POST',
  path: '/api/v1/push/subscriptions',
  body: pushSubscriptionBody,
  responses: { 201: pushSubscriptionCreated },
});

/** My devices that receive push notifications */
export const getPushSubscriptions = defineOperation({
  method: 'GET',
  path: '/api/v1/push/subscriptions',
  responses: { 200: pushDeviceList },
});

/** Stop push to one of my devices */
export const deletePushSubscriptionsById = defineOperation({
  method: 'DELETE',
  path: '/api/v1/push/subscriptions/:id',
  params: pushSubscriptionParams,
  responses: { 200: successResponse },
});

/** My notification choices: per kind and channel, and quiet hours */
export const getUserNotificationPreferences = defineOperation({
  method: 'GET',
  path: '/api/v1/user/notification-preferences',
  responses: { 200: notificationPreferences },
});

/** Change my notification choices (a kind or channel left out keeps its value) */
export const putUserNotificationPreferences = defineOperation({
  method: 'PUT',
  path: '/api/v1/user/notification-preferences',
  body: notificationPreferencesBody,
  responses: { 200: notificationPreferences },
});
