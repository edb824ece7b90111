import { type Currency, toMinor } from './money.ts';

// Spec §2 "Referral page" and §9: the buyer gets 5% off, the referrer a cashback equal to the
// buyer's discount, "up to 50 times the currency factor".
export const REFERRAL_PERCENT = 5;
export const REFERRAL_CAP_BASE = 50;

/** The cap in minor units of the currency: 50 × factor, e.g. $50.00 or ₹4,250.00. */
export const cashbackCap = (currency: Currency) => toMinor(REFERRAL_CAP_BASE * currency.factor, currency);

/** The referrer's cashback for one referred order: the buyer's discount, capped. */
export const referralCashback = (buyerDiscountMinor: number, currency: Currency) =>
  Math.max(0, Math.min(buyerDiscountMinor, cashbackCap(currency)));

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A referral code from random bytes: 'REF' + 8 unambiguous characters (40 bits). */
export function referralCodeFrom(bytes: Uint8Array): string {
  let code = 'REF';
  for (let i = 0; i < 8; i++) code += ALPHABET[(bytes[i] ?? 0) % ALPHABET.length];
  return code;
}

/** Coupon codes as typed by people: trimmed and upper-cased. */
export const normalizeCode = (code: string) => code.trim().toUpperCase();
