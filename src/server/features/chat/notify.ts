import type { AppDeps } from '../../deps.ts';
import { renderEmail } from '../mail/render-email.ts';
import type { Conversation } from './conversations.ts';

// Offline chat by e-mail. Everything goes through the outbox, so a failing SMTP
// server delays these mails but never loses them; renderEmail escapes the visitor's text.
function founderAddresses(deps: AppDeps): string[] {
  return deps.config.ADMIN_EMAILS.length > 0 ? deps.config.ADMIN_EMAILS : [deps.config.BRAND_EMAIL];
}

export async function emailFounderNewChat(deps: AppDeps, conversation: Conversation, firstMessage: string) {
  const { config } = deps;
  const who = conversation.userName ?? conversation.userEmail ?? conversation.contactEmail ?? 'A visitor';
  const mail = renderEmail(config.BRAND_NAME, {
    subject: `New chat from ${who}`,
    heading: 'A visitor is waiting in the chat',
    paragraphs: ['A new chat started while nobody was in the chat console.'],
    rows: [
      ['From', who],
      ...(conversation.userEmail ?? conversation.contactEmail ? ([['E-mail', (conversation.userEmail ?? conversation.contactEmail)!]] as [string, string][]) : []),
      ['Message', firstMessage],
    ],
    action: { label: 'Open the chat console', url: `${config.publicUrl}/adminChat` },
  });
  for (const to of founderAddresses(deps)) await deps.mailer.enqueue(to, 'chat-new', mail);
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
  await deps.mailer.enqueue(to, 'chat-reply', mail);
}
