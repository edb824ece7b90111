// The last line of the referral terms, shared by ReferralEndDate and its DOM island.
const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** From the configured REFERRAL_VALID_UNTIL (null: none set). */
export const referralEndText = (until: string | null) => (until ? `Valid until ${day(until)}.` : 'No end date is set.');
