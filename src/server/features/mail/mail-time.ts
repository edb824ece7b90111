import type { AppDeps } from '../../deps.ts';

/**
 * The zone of a mail's times (docs/decisions/335-one-rule-for-times.md): the recipient's stored
 * zone, else the agency's. No account stores a zone yet, so every mail is in the agency's:
 * INVOICE_TIME_ZONE, the zone its documents are dated in.
 */
export const mailTimeZone = (config: Pick<AppDeps['config'], 'INVOICE_TIME_ZONE'>, recipientZone?: string | null): string =>
  recipientZone || config.INVOICE_TIME_ZONE;
