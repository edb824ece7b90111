import { and, eq, isNull } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { chatConversations } from '../../db/schema/chat.ts';
import { ownerRecipients } from '../mail/notify-owners.ts';
import { renderEmail } from '../mail/render-email.ts';
import type { Conversation } from './conversations.ts';

// Offline chat by e-mail. Everything goes through the outbox, so a failing SMTP
// server delays these mails but never loses them; renderEmail escapes the visitor's text. Each mail
// is queued in the transaction of the change it tells of (docs/decisions/340-mails-in-their-transaction.md).

/**
 * The owner hears once per chat: the claim (founder_notified_at) and the mail commit together, so a
 * crash between them neither loses the mail nor sends it twice. True for the one caller that claimed it.
 */
export async function emailOwnerNewChat(deps: AppDeps, conversation: Conversation, firstMessage: string): Promise<boolean> {
  const { config } = deps;
  const who = conversation.userName ?? conversation.userEmail ?? conversation.contactEmail ?? 'A visitor';
  const mail = renderEmail(config.BRAND_NAME, {
    subject: `New chat from ${who}`,
    heading: 'A visitor is waiting in the chat',
    paragraphs: ['A new chat started while nobody was in the chat console.'],
    rows: [
      ['From', who],
      ...((conversation.userEmail ?? conversation.contactEmail)
        ? ([['E-mail', (conversation.userEmail ?? conversation.contactEmail)!]] as [string, string][])
        : []),
      ['Message', firstMessage],
    ],
    action: { label: 'Open the chat console', url: `${config.publicUrl}/adminChat` },
  });
  return deps.events.transaction(async (tx) => {
    const [claimed] = await tx
      .update(chatConversations)
      .set({ ownerNotifiedAt: new Date() })
      .where(and(eq(chatConversations.id, conversation.id), isNull(chatConversations.ownerNotifiedAt)))
      .returning({ id: chatConversations.id });
    if (!claimed) return false;
    for (const to of ownerRecipients(deps.config)) await deps.mailer.enqueue(tx, to, 'chat-new', mail);
    return true;
  });
}

export async function emailVisitorReply(deps: AppDeps, to: string, reply: string) {
  const { config } = deps;
  const mail = renderEmail(config.BRAND_NAME, {
    subject: `${config.FOUNDER_NAME} replied to your chat`,
    heading: 'You have a reply',
    paragraphs: [`${config.FOUNDER_NAME} answered your message on ${config.BRAND_NAME}:`],
    rows: [['Reply', reply]],
    action: { label: 'Continue the chat', url: config.publicUrl },
  });
  // Nothing changes with this mail but the outbox: its own transaction.
  await deps.events.transaction((tx) => deps.mailer.enqueue(tx, to, 'chat-reply', mail));
}
