import type { PublicAddon, PublicAddonsResponse } from '../../../contract/changes.ts';
import { getAddonsEndpoint } from '../../../contract/endpoints.ts';
import { callEndpoint } from '../../lib/api.ts';
import { formatMoneyWhole as wholeMoney } from '../../../domain/money.ts';

// The prerendered /pricing's "Optional extras" without React (decision 115's page-JS budget): the
// section is in the page's markup, hidden; its items are the live catalogue in the visitor's
// currency, read through the operation's zod-free endpoint (no zod, no router; docs/decisions/301-zod-free-
// endpoints.md) — docs/decisions/261-optional-extras-on-pricing.md.

/** "₹16,915 + GST · 5 extra days" */
export function extraPrice(
  a: Pick<PublicAddon, 'amount' | 'extraDays'>,
  list: Pick<PublicAddonsResponse, 'currency' | 'symbol' | 'minorDigits'>,
): string {
  const days = a.extraDays > 0 ? ` · ${a.extraDays} extra day${a.extraDays === 1 ? '' : 's'}` : '';
  return `${wholeMoney(a.amount, list)}${plusGst(list.currency) ? ' + GST' : ''}${days}`;
}

/**
 * The rule of change-text.ts's `plusGstFor` (rupees, and the agency charges GST: the site's tax note
 * is set), read straight from the page's site-config JSON: importing that module and
 * src/web/lib/site-config.ts would put ~3.5 KB more on /pricing (the page-JS budget, decision 115).
 */
function plusGst(currency: string): boolean {
  if (currency !== 'INR') return false;
  try {
    const config = JSON.parse(document.getElementById('site-config')?.textContent ?? '{}') as { taxNote?: string };
    return Boolean(config.taxNote);
  } catch {
    return false;
  }
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = '') => {
  const e = document.createElement(tag);
  e.className = className;
  e.textContent = text;
  return e;
};

/** Fills the section for a currency; the last call wins when the visitor switches quickly. */
export function showExtras(section: HTMLElement, currency: string) {
  const token = String(Date.now() + Math.random());
  section.dataset.currency = token;
  void callEndpoint(getAddonsEndpoint, { query: { currency } })
    .catch(() => null)
    .then((list) => {
      if (section.dataset.currency !== token) return;
      const items = (list?.addons ?? []).map((a) => {
        const li = el('li', 'flex flex-col gap-1');
        li.dataset.testid = 'extra';
        const line = el('p', 'flex flex-wrap justify-between gap-x-3 text-ink');
        line.append(el('span', 'font-medium text-white', a.name), el('span', '', extraPrice(a, list!)));
        li.append(line);
        if (a.description) li.append(el('p', 'text-sm text-muted', a.description));
        return li;
      });
      section.querySelector('[data-extras-list]')!.replaceChildren(...items);
      section.hidden = items.length === 0;
    });
}
