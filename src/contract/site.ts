import { z } from 'zod';

/** The public part of the server configuration, embedded in every HTML page as JSON. */
export const publicSiteConfigSchema = z.object({
  brand: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  founder: z.string(),
  social: z.object({
    whatsapp: z.string(),
    facebook: z.string(),
    linkedin: z.string(),
    youtube: z.string(),
    twitter: z.string(),
    instagram: z.string(),
  }),
  signIn: z.object({ google: z.boolean(), microsoft: z.boolean() }),
  payments: z.enum(['razorpay', 'test']),
  /** REFERRAL_VALID_UNTIL as an ISO instant, or null: no end date (docs/decisions/031). */
  referralValidUntil: z.string().nullable(),
  /** The assistant's language model (LLM_MODEL) when one is configured; null: retrieval-only mode. */
  assistantModel: z.string().nullable(),
  /** INVOICE_RETENTION_YEARS as text ("8"): a text setting, so a prerendered page follows it at serve time (decision 195). */
  invoiceRetentionYears: z.string(),
  /**
   * "+ 18 % GST for buyers in India" (or "incl. 18 % GST …"); empty when not registered (docs/decisions/220-gst-
   * tax-rules.md). A text setting like the one above.
   */
  taxNote: z.string(),
  /** "$49.00 a month (₹4,165.00 + GST in India)": MAINTENANCE_MONTHLY_PRICE as the public pages print it; a text setting like the two above. */
  maintenancePrice: z.string(),
  /**
   * DEFAULT_PHONE_COUNTRY (default IN): the phone's country before the visitor's location is known
   * or when it is not (docs/decisions/336-tracker-and-phone-country.md).
   */
  defaultPhoneCountry: z.object({ code: z.string(), name: z.string(), phone_code: z.string() }),
});
export type PublicSiteConfig = z.infer<typeof publicSiteConfigSchema>;

export const SITE_CONFIG_ELEMENT_ID = 'site-config';
