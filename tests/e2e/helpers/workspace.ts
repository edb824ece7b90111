import { expect, type Page } from '@playwright/test';
import { DESIGN_ABOUT, DESIGN_HOME } from './images.ts';
import { apiAs } from './orders.ts';

// Seeds an order's workspace through the real API (as the signed-in customer and founder of the
// pages given), for specs that look at the screens rather than the steps: brief, files, a review
// round with a pin, and messages — with long texts where the layout must cope with them.

/** Uploads one file as the user signed in in `page` (multipart, part `file`) to `base`/files; returns its id. */
export async function uploadAs(page: Page, base: string, name: string, bytes: Buffer, type = 'image/png'): Promise<string> {
  const res = await page.evaluate(
    async ([b, n, data, t]) => {
      const form = new FormData();
      form.append('file', new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type: t }), n);
      const r = await fetch(`/api/v1/${b}/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${localStorage.getItem('token')}` },
        body: form,
      });
      return { status: r.status, body: await r.json() };
    },
    [base, name, bytes.toString('base64'), type] as const,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { file: { id: string } }).file.id;
}

/** Brief (submitted), files both ways, an open `ui` round with a pin, and a message each way. */
export async function seedWorkspace(customer: Page, admin: Page, orderId: string, long: { name: string; note: string; address: string }) {
  const brief = await apiAs(customer, 'PUT', `orders/${orderId}/brief`, {
    answers: {
      businessName: long.name.slice(0, 190),
      businessDescription: `${long.note} `.repeat(4),
      pages: ['Home', long.address.slice(0, 190), 'Contact'],
      likedWebsites: [`https://example.com/${long.address}`],
      domain: 'needs',
      contentReadiness: 'partly',
    },
    submit: true,
  });
  expect(brief.status, JSON.stringify(brief.body)).toBe(200);
  await uploadAs(customer, `orders/${orderId}`, `${long.address.slice(0, 80)}-logo.png`, DESIGN_HOME);
  const home = await uploadAs(admin, `admin/orders/${orderId}`, 'home-page-design-first-draft-with-a-long-name.png', DESIGN_HOME);
  const about = await uploadAs(admin, `admin/orders/${orderId}`, 'about.png', DESIGN_ABOUT);
  const round = await apiAs(admin, 'POST', `admin/orders/${orderId}/reviews`, {
    kind: 'ui',
    title: long.note.slice(0, 120),
    note: `${long.note} `.repeat(3),
    fileIds: [home, about],
    previewUrl: `https://preview.example.com/${long.address}`,
  });
  expect(round.status, JSON.stringify(round.body)).toBe(201);
  const reviewId = (round.body as { review: { id: string } }).review.id;
  const pin = await apiAs(customer, 'POST', `orders/${orderId}/reviews/${reviewId}/comments`, {
    fileId: home,
    x: 0.9,
    y: 0.1,
    text: `${long.address} ${long.note}`,
  });
  expect(pin.status, JSON.stringify(pin.body)).toBe(201);
  for (const [page, base] of [
    [customer, `orders/${orderId}`],
    [admin, `admin/orders/${orderId}`],
  ] as const) {
    const m = await apiAs(page, 'POST', `${base}/messages`, { text: `${long.address}\n${long.note}`, fileIds: [home] });
    expect(m.status, JSON.stringify(m.body)).toBe(201);
  }
}
