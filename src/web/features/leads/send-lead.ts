import { postAlertSendEmailEndpoint, postAlertSendMessageEndpoint } from '../../../contract/endpoints.ts';
import { callEndpoint } from '../../lib/api.ts';

export type LeadMode = 'email' | 'phone';

/** Spec §7: alert/sendEmail {email} or alert/sendMessage {phone}; the outcome is not shown (§8). */
export async function sendLead(mode: LeadMode, value: string, page: string): Promise<void> {
  if (mode === 'email') await callEndpoint(postAlertSendEmailEndpoint, { body: { email: value, page } });
  else await callEndpoint(postAlertSendMessageEndpoint, { body: { phone: value, page } });
}
