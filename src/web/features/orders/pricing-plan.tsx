import { siteConfig } from '../../lib/site-config.ts';
import { formatMoney } from '../../../domain/money.ts';
import { ADVANCE_PERCENT, PLATFORM_FEE_PERCENT, planPrices, quote } from '../../../domain/pricing.ts';
import { useSession } from '../../lib/session.tsx';
import { choosePlan, planCtaText } from './plan-cta.ts';
import { useCurrency } from './use-currency.ts';
import { CurrencySelect } from './currency-select.tsx';
import { OptionalExtras } from '../changes/index.ts';

// Spec §2 "Pricing" feature list.
const FEATURES = [
  'Delivery in 1 month',
  'High-quality UI/UX',
  'Deployment included',
  'No no-code software',
  'High performance',
  '1 year of customer support',
  'Up to 50 screens and 30 APIs',
];

/**
 * The plan card of /pricing: prices in the visitor's currency, the fee, and the button that goes
 * to /pay (signed in) or /login with isPricing (visitor) — the router app loads then. On the
 * prerendered page this is the markup; pricing-plan-dom.ts does the same without React (decision 115).
 */
export function PricingPlan() {
  const { isLoggedIn } = useSession();
  // The visitor's currency (country or own choice) from the configured table.
  const { currencies, currency, setCurrency } = useCurrency();
  const { listPrice, price } = planPrices(currency);

  const onChoose = () => void choosePlan(isLoggedIn);

  return (
    <>
      <article
        aria-labelledby="plan-title"
        data-testid="plan-card"
        className="relative mx-auto mt-12 max-w-md rounded-[2rem] border border-accent/50 bg-card p-8
          shadow-[0_0_80px_-20px_rgba(124,58,237,0.6)]"
      >
        {/* One line at every width (it wrapped onto the heading at 390 px). */}
        <p
          className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-gradient-to-r from-[#7c3aed] to-[#be185d] px-4 py-1 text-xs
            font-bold tracking-wider whitespace-nowrap text-white uppercase"
        >
          Limited Launch Special
        </p>
        <h2 id="plan-title" className="text-center text-lg font-semibold text-accent-soft">
          Custom Website
        </h2>
        <p className="mt-4 flex flex-wrap items-baseline justify-center gap-x-3">
          <s className="text-2xl text-muted" data-testid="list-price">
            <span className="sr-only">List price </span>
            <span data-amount>{formatMoney(listPrice, currency)}</span>
          </s>
          <span className="text-4xl font-black text-white sm:text-5xl" data-testid="plan-price">
            <span className="sr-only">Now </span>
            <span data-amount>{formatMoney(price, currency)}</span>
          </span>
        </p>
        <p className="mt-1 text-center text-sm text-muted">Per Website</p>
        {/* The fee checkout adds, from the same quote() as checkout. */}
        <p className="mt-1 min-h-10 text-center text-sm text-muted sm:min-h-5" data-testid="plan-fee">
          {`+ ${PLATFORM_FEE_PERCENT}% platform fee (`}
          <span data-amount>{formatMoney(quote(currency).fee, currency)}</span>
          {') at checkout'}
        </p>
        {/* GST for buyers in India (empty when the agency is not registered). */}
        <p className="text-center text-sm text-muted" data-testid="tax-note">
          {siteConfig().taxNote}
        </p>
        {/* Reserved height: the selector appears once the currency table has loaded (no layout shift). */}
        <div className="mt-3 min-h-[2.125rem]">
          <CurrencySelect currencies={currencies} value={currency.code} onChange={setCurrency} className="justify-center" keepInMarkup />
        </div>
        {/* What the visitor came to read and the button: Help & Support keeps clear of both. */}
        <ul className="mt-8 space-y-3" data-primary-action>
          {FEATURES.map((f) => (
            <li key={f} className="flex items-center gap-3 text-ink">
              <svg
                viewBox="0 0 24 24"
                className="h-5 w-5 shrink-0 text-success"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.6"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden="true"
              >
                <path d="M5 12.5l4.5 4.5L19 7.5" />
              </svg>
              {f}
            </li>
          ))}
        </ul>
        <button
          type="button"
          onClick={onChoose}
          className="mt-8 min-h-12 w-full rounded-xl bg-accent-strong px-5 font-semibold text-white hover:bg-accent-hover"
          data-testid="pricing-cta"
          data-primary-action
        >
          {planCtaText(isLoggedIn)}
        </button>
        <p className="mt-4 text-center text-sm text-muted">Note: You will have to pay {ADVANCE_PERCENT}% advance.</p>
      </article>
      <OptionalExtras currency={currency.code} />
    </>
  );
}
