import type { BuiltApp } from '../../src/server/app.ts';

type Who = { headers: Record<string, string> };

/**
 * Opens a checkout for one installment through the API and returns the provider order id. The
 * advance is opened with the terms accepted, as the /pay form sends it, unless `body` says otherwise.
 */
export async function openCheckout(t: BuiltApp, who: Who, body: Record<string, unknown>): Promise<string> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payment/create-order',
    headers: who.headers,
    payload: body.kind === 'advance' ? { acceptTerms: true, ...body } : body,
  });
  if (created.statusCode !== 200) throw new Error(`create-order ${created.statusCode}: ${created.body}`);
  return created.json().id as string;
}

/** "Pays" on the built-in test checkout page and returns the signed fields the browser would post back. */
export async function payOnTestCheckout(t: BuiltApp, providerOrderId: string): Promise<Record<string, string>> {
  const paid = await t.app.inject({
    method: 'POST',
    url: `/api/v1/payment/test-checkout/${providerOrderId}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'action=pay',
  });
  if (paid.statusCode !== 303) throw new Error(`test checkout ${paid.statusCode}: ${paid.body}`);
  return Object.fromEntries(new URL(paid.headers.location as string, 'http://x').searchParams);
}

/** The whole browser path for one installment: create-order, pay, verify. Returns the order id. */
export async function payInstallment(t: BuiltApp, who: Who, body: Record<string, unknown>): Promise<string> {
  const fields = await payOnTestCheckout(t, await openCheckout(t, who, body));
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payment/verify-payment',
    headers: who.headers,
    payload: fields,
  });
  if (verified.statusCode !== 200) throw new Error(`verify-payment ${verified.statusCode}: ${verified.body}`);
  return verified.json().orderId as string;
}
