import { formatCustomerDate } from '../../../domain/tracker.ts';

// Spec §2: English (US), long month, day, year, 12-hour time with minutes, in UTC — the one
// formatter customers' dates use (src/domain/tracker.ts), with its zone named.
export const formatFooterDateTime = (date: Date) => formatCustomerDate(date);
