// The page of the built-in test checkout, shared by the installment checkout
// (features/payments) and the maintenance plan's subscription page (features/maintenance): the
// embedded provider's own look, so neither feature imports the other for it.

// The site's own font stack (src/web/styles.css --font-sans): the page must look like the site.
export const SITE_FONT = "ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif";
export const PRIMARY =
  'box-sizing:border-box;padding:12px ' +
  '16px;border:0;border-radius:10px;background:#7c3aed;color:#fff;font:inherit;font-size:16px;font-weight:700;cursor:pointer';

/** The test checkout's page around `body` (HTML, escaped by the caller): also the subscription page's (features/maintenance). */
export const testCheckoutHtml = (
  brand: string,
  body: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Test checkout — ${brand}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body style="margin:0;min-height:100vh;background:#0b0b10;color:#e5e7eb;font-family:${SITE_FONT};display:flex;align-items:center;justify-content:center">
<main style="box-sizing:border-box;max-width:420px;width:calc(100% - 32px);background:#15151f;border:1px solid #2a2a3a;border-radius:16px;padding:28px">
<p role="note"
  style="margin:0 0 16px;padding:8px 12px;border-radius:8px;background:#fde68a;color:#1f1300;font-weight:700;text-align:center">
TEST MODE — no real money moves</p>
${body}</main></body></html>`;
/** The primary button's style, for the pages built on testCheckoutHtml. */
export const TEST_CHECKOUT_BUTTON = PRIMARY;
