// Spec §5 "Validation rules" as pure functions, shared by the browser (form attributes, messages)
// and the server (zod schemas in src/contract/). The server enforces every rule; the browser only
// shows native messages plus the one phone message the spec names.

export const NAME_MAX = 100;
export const EMAIL_MAX = 100;
export const ADDRESS_MAX = 500;
export const MESSAGE_MAX = 5000;
export const CHAT_MESSAGE_MAX = 2000;
export const PHONE_MIN_DIGITS = 5;
export const PHONE_MAX_DIGITS = 11;
export const ONE_TIME_CODE_LENGTH = 6;

/** Spec §5 phone message, shown under every phone field. */
export const PHONE_MESSAGE = 'Please enter a valid phone number with 5 to 11 digits.';

/**
 * Lead e-mail (spec §5): lowercase letters, digits and ._%+- before @, then a domain, then a dot
 * and at least 2 letters. The same string is the `pattern` attribute of the lead input.
 */
export const LEAD_EMAIL_PATTERN = '[a-z0-9._%+\\-]+@[a-z0-9.\\-]+\\.[a-z]{2,}';
export const LEAD_EMAIL_REGEX = new RegExp(`^${LEAD_EMAIL_PATTERN}$`);
/**
 * The lead input's `pattern` attribute: the same rule with capitals allowed, because the address is
 * lower-cased (and trimmed) before it is checked and sent — never lose a lead to case.
 */
export const LEAD_EMAIL_INPUT_PATTERN = LEAD_EMAIL_PATTERN.replace(/a-z/g, 'a-zA-Z');

/** Phone digits typed after the country code: digits only, 5 to 11 of them. */
export const PHONE_DIGITS_PATTERN = `\\d{${PHONE_MIN_DIGITS},${PHONE_MAX_DIGITS}}`;
export const PHONE_DIGITS_REGEX = new RegExp(`^${PHONE_DIGITS_PATTERN}$`);

/** A country calling code as the picker gives it: '1', '+91', '1-242'. */
export const PHONE_CODE_REGEX = /^\+?\d{1,4}(?:-\d{1,4})?$/;

/** A lead phone is the phone code joined with the typed digits: '+1 5551234', '+915551234'. */
export const LEAD_PHONE_REGEX = new RegExp(`^\\+?\\d{1,4}(?:-\\d{1,4})?[ -]?${PHONE_DIGITS_PATTERN}$`);

/** Trims, lower-cases: e-mail addresses are compared and stored in lower case. */
export const normalizeEmail = (value: string) => value.trim().toLowerCase();

/** The lead form's rule (spec §5), applied to the normalized address. */
export function isValidLeadEmail(value: string): boolean {
  const email = normalizeEmail(value);
  return email.length <= EMAIL_MAX && LEAD_EMAIL_REGEX.test(email) && !email.includes('..');
}

/** Contact and details e-mail: required, an e-mail address, at most 100 characters. */
export const isValidEmail = isValidLeadEmail;

export function isValidName(value: string): boolean {
  const name = value.trim();
  return name.length > 0 && name.length <= NAME_MAX;
}

export const isValidPhoneDigits = (value: string) => PHONE_DIGITS_REGEX.test(value.trim());

export const isValidPhoneCode = (value: string) => PHONE_CODE_REGEX.test(value.trim());

/** The lead-by-phone value: a country code joined with 5 to 11 typed digits, 15 digits at most (E.164). */
export function isValidLeadPhone(value: string): boolean {
  const phone = value.trim();
  return LEAD_PHONE_REGEX.test(phone) && phone.replace(/\D/g, '').length <= 15;
}

/** Joins a picker code and typed digits the way the lead form sends them: '+1-242 5551234'. */
export function joinPhone(phoneCode: string, digits: string): string {
  return `+${phoneCode.replace(/^\+/, '')} ${digits.trim()}`;
}

/** Keeps only digits (phone inputs strip everything else as the visitor types). */
export const onlyDigits = (value: string) => value.replace(/\D/g, '');

/** One-time code: required, exactly the 6 digits the server sends (spec: max 6 characters). */
export const ONE_TIME_CODE_REGEX = new RegExp(`^\\d{${ONE_TIME_CODE_LENGTH}}$`);
export const isValidOneTimeCode = (value: string) => ONE_TIME_CODE_REGEX.test(value.trim());

/** Chat message: non-empty after trimming, bounded length. */
export function isValidChatMessage(value: string): boolean {
  const text = value.trim();
  return text.length > 0 && text.length <= CHAT_MESSAGE_MAX;
}

export const isValidAddress = (value: string, required: boolean) => {
  const address = value.trim();
  return address.length <= ADDRESS_MAX && (!required || address.length > 0);
};

export const isValidMessage = (value: string) => value.length <= MESSAGE_MAX;
