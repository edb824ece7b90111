import type { LeadResponse, SendEmailBody, SendMessageBody } from '../../../contract/leads.ts';
import { api } from '../../lib/api.ts';

export type LeadMode = 'email' | 'phone';

/** Spec §7: alert/sendEmail {email} or alert/sendMessage {phone}; the outcome is not shown (§8). */
export async function sendLead(mode: LeadMode, value: string, page: string): Promise<void> {
  if (mode === 'email') await api<LeadResponse>('POST', 'alert/sendEmail', { email: value, page } satisfies SendEmailBody);
  else await api<LeadResponse>('POST', 'alert/sendMessage', { phone: value, page } satisfies SendMessageBody);
}
