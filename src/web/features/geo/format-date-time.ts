import { formatWhen } from '../../../domain/when.ts';

// Spec §2's words and order (English (US), long month, day, year, 12-hour time with minutes), in
// the viewer's zone, named: the one formatter (docs/decisions/335-one-rule-for-times.md).
export const formatFooterDateTime = (date: Date) => formatWhen(date);
