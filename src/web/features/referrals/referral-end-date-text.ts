// The last line of the referral terms, shared by ReferralEndDate and its DOM island.
import { formatDate } from '../../../domain/when.ts';

const day = (iso: string) => formatDate(iso);

/** From the configured REFERRAL_VALID_UNTIL (null: none set). */
export const referralEndText = (until: string | null) => (until ? `Valid until ${day(until)}.` : 'No end date is set.');
