import { z } from 'zod';
import { defineOperation } from './operation.ts';

// The Terms and Conditions as accepted (docs/decisions/272-accepted-terms-readable.md): every version a
// customer accepted can be read again, word for word. GET /api/v1/terms/versions/{version} (public:
// the terms were public when accepted); GET /api/v1/orders/{orderId}/terms (the order's customer):
// which version was accepted and when. The back office's order detail has `termsAcceptance` too.

export const termsVersionParams = z.object({
  version: z.string().regex(/^[0-9a-f]{16}$/, 'A terms version is 16 hexadecimal characters.'),
});

/** A run of text, or a link (as on the terms page). */
const termsPart = z.union([z.string(), z.object({ text: z.string(), href: z.string() })]);

export const termsVersionResponse = z.object({
  version: z.string(),
  /** True while this is the wording on the site now. */
  current: z.boolean(),
  /** The brand and contact address are today's settings; the version covers the wording. */
  intro: z.string(),
  sections: z.array(z.object({ title: z.string(), body: z.array(termsPart) })),
});
export type TermsVersionResponse = z.infer<typeof termsVersionResponse>;

export const orderTermsParams = z.object({ orderId: z.string().min(1).max(64) });

export const acceptedTerms = z.object({
  version: z.string(),
  acceptedAt: z.string(),
  /** Where the accepted wording is read: /api/v1/terms/versions/{version}. */
  url: z.string(),
});
export type AcceptedTerms = z.infer<typeof acceptedTerms>;

/** null for an order placed before acceptances were recorded. */
export const orderTermsResponse = z.object({ termsAccepted: acceptedTerms.nullable() });
export type OrderTermsResponse = z.infer<typeof orderTermsResponse>;

/** The API path of a version's wording (the export and the order page link it). */
export const termsVersionPath = (version: string) => `/api/v1/terms/versions/${version}`;
/** The page that shows it. */
export const termsVersionPage = (version: string) => `/termsandconditions/${version}`;

// Operations (docs/decisions/280-contract-operations.md).

/** The wording of one version of the Terms and Conditions, as accepted */
export const getTermsVersionsByVersion = defineOperation({
  method: 'GET',
  path: '/api/v1/terms/versions/:version',
  params: termsVersionParams,
  responses: { 200: termsVersionResponse },
});

/** Which terms were accepted for your order, and when */
export const getOrdersTerms = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/terms',
  params: orderTermsParams,
  responses: { 200: orderTermsResponse },
});
