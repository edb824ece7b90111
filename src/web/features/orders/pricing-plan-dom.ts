import { DEFAULT_CURRENCY } from '../../../domain/currencies.ts';
import { formatMoney, type Currency } from '../../../domain/money.ts';
import { planFee, planPrices } from '../../../domain/plan-price.ts';
import { tokenStore } from '../../lib/api.ts';
import { visitorWeather } from '../geo/weather.ts';
import { choosePlan, planCtaText } from './plan-cta.ts';
import { showExtras } from '../changes/optional-extras-dom.ts';
import { currencyOptionLabel, currencyTable, readCurrencyChoice, saveCurrencyChoice, visitorCurrency } from './visitor-currency.ts';

/**
 * The plan card of a prerendered /pricing without React (docs/decisions/115): PricingPlan's markup,
 * its amounts put in the visitor's currency (own choice, else their country's, else the default —
 * as useCurrency()), the currency picker once the table has two or more, and the button.
 */
export function runPricingPlan(el: HTMLElement) {
  const amount = (testId: string) => el.querySelector<HTMLElement>(`[data-testid="${testId}"] [data-amount]`)!;
  const select = el.querySelector<HTMLSelectElement>('[data-testid="currency-select"]')!;
  let currencies: readonly Currency[] = [DEFAULT_CURRENCY];
  let choice = readCurrencyChoice();
  let country: string | null = null;

  // The prerendered amounts are the default currency's. Formatting money wakes the browser's
  // number-formatting data, a long task on a slow phone (Lighthouse: most of /pricing's blocking
  // time), so amounts are rewritten only when the visitor's currency is another one.
  let shown = DEFAULT_CURRENCY.code;
  // The add-ons under the card (decision 250), in the currency shown; read again only when it changes.
  const extras = el.querySelector<HTMLElement>('[data-testid="optional-extras"]');
  let extrasIn = '';
  const show = () => {
    const currency = visitorCurrency(choice, country, currencies);
    select.value = currency.code;
    if (extras && currency.code !== extrasIn) {
      extrasIn = currency.code;
      showExtras(extras, currency.code);
    }
    if (currency.code === shown) return;
    shown = currency.code;
    const { listPrice, price } = planPrices(currency);
    amount('list-price').textContent = formatMoney(listPrice, currency);
    amount('plan-price').textContent = formatMoney(price, currency);
    amount('plan-fee').textContent = formatMoney(planFee(currency), currency);
  };
  show();
  void currencyTable().then((table) => {
    if (!table) return;
    currencies = table.currencies;
    select.replaceChildren(...currencies.map((c) => new Option(currencyOptionLabel(c), c.code)));
    select.parentElement!.hidden = currencies.length < 2;
    show();
  });
  void visitorWeather().then((w) => {
    country = w.country;
    show();
  });
  select.addEventListener('change', () => {
    choice = select.value;
    saveCurrencyChoice(choice);
    show();
  });

  const cta = el.querySelector<HTMLButtonElement>('[data-testid="pricing-cta"]')!;
  let isLoggedIn = false;
  // Only with a stored token is there anyone to verify: a visitor does not load that code at all.
  if (tokenStore.get()) {
    void import('../../lib/signed-in.ts')
      .then((m) => m.signedInUserId())
      .then((id) => {
        isLoggedIn = id !== null;
        cta.textContent = planCtaText(isLoggedIn);
      });
  }
  cta.addEventListener('click', () => void choosePlan(isLoggedIn));
}
