// Every value that reaches an e-mail passes through escapeHtml, so a name like
// <script> arrives as text.
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export interface EmailContent {
  subject: string;
  heading: string;
  /** Plain-text paragraphs; they are escaped for the HTML part. */
  paragraphs: string[];
  /** A highlighted value such as a sign-in code. */
  highlight?: string;
  /** Label/value rows, e.g. the fields of a contact message. */
  rows?: [string, string][];
  action?: { label: string; url: string };
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export function renderEmail(brand: string, c: EmailContent): RenderedEmail {
  const text = [
    c.heading,
    '',
    ...c.paragraphs.flatMap((p) => [p, '']),
    ...(c.highlight ? [c.highlight, ''] : []),
    ...(c.rows ?? []).map(([k, v]) => `${k}: ${v}`),
    ...(c.action ? ['', `${c.action.label}: ${c.action.url}`] : []),
    '',
    `— ${brand}`,
  ].join('\n');
  const safeUrl = c.action && /^https?:\/\//.test(c.action.url) ? c.action.url : undefined;
  const html = `<!doctype html><html><body style="margin:0;background:#0b0b10;font-family:Arial,Helvetica,sans-serif;color:#e5e7eb">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;background:#15151f;border:1px solid #2a2a3a;border-radius:16px">
<tr><td style="padding:28px 32px">
<p style="margin:0 0 8px;color:#a78bfa;font-weight:bold">${escapeHtml(brand)}</p>
<h1 style="margin:0 0 16px;font-size:22px;color:#ffffff">${escapeHtml(c.heading)}</h1>
${c.paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${c.highlight ? `<p style="margin:16px 0;font-size:28px;letter-spacing:6px;font-weight:bold;color:#ffffff">${escapeHtml(c.highlight)}</p>` : ''}
${
  c.rows?.length
    ? `<table role="presentation" cellpadding="4" style="margin:8px 0">${c.rows
        .map(
          ([k, v]) =>
            `<tr><td style="color:#9ca3af;vertical-align:top">${escapeHtml(k)}</td>` +
            `<td style="white-space:pre-wrap">${escapeHtml(v)}</td></tr>`,
        )
        .join('')}</table>`
    : ''
}
${
  safeUrl
    ? `<p style="margin:20px 0"><a href="${escapeHtml(safeUrl)}" style="background:#7c3aed;color:#fff;padding:10px ` +
      `18px;border-radius:8px;text-decoration:none">${escapeHtml(c.action!.label)}</a></p>`
    : ''
}
</td></tr></table></td></tr></table></body></html>`;
  return { subject: c.subject, text, html };
}
