import { describe, expect, it } from 'vitest';
import {
  PHONE_MESSAGE,
  isValidAddress,
  isValidChatMessage,
  isValidEmail,
  isValidLeadEmail,
  isValidLeadPhone,
  isValidName,
  isValidOneTimeCode,
  isValidPhoneCode,
  isValidPhoneDigits,
  joinPhone,
  normalizeEmail,
  onlyDigits,
} from './validation.ts';

describe('lead e-mail (spec §5)', () => {
  it.each(['jane@example.com', 'j.doe+web_1%x@mail.example.co', 'a-b@sub.domain.io', '  Jane@Example.COM  '])('accepts %s', (v) => {
    expect(isValidLeadEmail(v)).toBe(true);
  });
  it.each([
    '',
    'jane',
    'jane@',
    '@example.com',
    'jane@example',
    'jane@example.c',
    'ja ne@example.com',
    'jane@exa_mple.com',
    '<script>@x.io',
    'a..b@x.io',
    `${'a'.repeat(96)}@x.io`,
  ])('refuses %j', (v) => {
    expect(isValidLeadEmail(v)).toBe(false);
  });
  it('normalizes to trimmed lower case', () => {
    expect(normalizeEmail('  Jane@Example.COM ')).toBe('jane@example.com');
  });
  it('contact e-mail follows the same rule with max 100', () => {
    expect(isValidEmail(`${'a'.repeat(91)}@mail.com`)).toBe(true);
    expect(isValidEmail(`${'a'.repeat(92)}@mail.com`)).toBe(false);
  });
});

describe('phone', () => {
  it.each(['12345', '12345678901', ' 9876543210 '])('accepts %j digits', (v) => expect(isValidPhoneDigits(v)).toBe(true));
  it.each(['1234', '123456789012', '12345a', '+12345', '123 456', ''])('refuses %j digits', (v) =>
    expect(isValidPhoneDigits(v)).toBe(false),
  );
  it('has the spec message', () => {
    expect(PHONE_MESSAGE).toBe('Please enter a valid phone number with 5 to 11 digits.');
  });
  it.each(['1', '+1', '91', '1-242', '+1-242', '355'])('accepts phone code %j', (v) => expect(isValidPhoneCode(v)).toBe(true));
  it.each(['', '+', '12345', '1-', 'abc', '1 242'])('refuses phone code %j', (v) => expect(isValidPhoneCode(v)).toBe(false));

  it.each(['+1 5551234', '+1-242 5551234', '+9112345678901', '915551234', joinPhone('91', '9876543210')])('accepts lead phone %j', (v) =>
    expect(isValidLeadPhone(v)).toBe(true),
  );
  it.each(['+1 1234', '+1 123456789012', '1234', '+1 55512a4', '<b>+1 5551234</b>', '+1-242-999 12345678901'])(
    'refuses lead phone %j',
    (v) => expect(isValidLeadPhone(v)).toBe(false),
  );
  it('joins code and digits', () => {
    expect(joinPhone('+1', '5551234')).toBe('+1 5551234');
    expect(joinPhone('1-242', ' 5551234 ')).toBe('+1-242 5551234');
  });
  it('strips non-digits', () => expect(onlyDigits('(555) 12-34x')).toBe('5551234'));
});

describe('name, address, code and chat', () => {
  it('name is required and at most 100 characters', () => {
    expect(isValidName('Ada')).toBe(true);
    expect(isValidName('a'.repeat(100))).toBe(true);
    expect(isValidName('a'.repeat(101))).toBe(false);
    expect(isValidName('   ')).toBe(false);
  });
  it('address is optional on contact, required on details', () => {
    expect(isValidAddress('', false)).toBe(true);
    expect(isValidAddress(' ', true)).toBe(false);
    expect(isValidAddress('HSR Layout', true)).toBe(true);
    expect(isValidAddress('x'.repeat(501), false)).toBe(false);
  });
  it.each([
    ['123456', true],
    [' 123456 ', true],
    ['12345', false],
    ['1234567', false],
    ['12a456', false],
    ['', false],
  ])('one-time code %j → %s', (v, ok) => expect(isValidOneTimeCode(v)).toBe(ok));
  it.each([
    ['hello', true],
    ['  hi  ', true],
    ['', false],
    ['   \n\t', false],
    ['x'.repeat(2001), false],
  ])('chat message %j → %s', (v, ok) => expect(isValidChatMessage(v)).toBe(ok));
});
