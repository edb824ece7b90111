import { goToApp } from '../../islands/go-to-app.ts';

// The plan card's button (spec §2 "Pricing"), shared by PricingPlan and its DOM island.
export const planCtaText = (isLoggedIn: boolean) => (isLoggedIn ? 'Join the Family' : 'Log In');

/** To /pay with isAdvance (signed in) or /login with isPricing (visitor): the router app loads then. */
export const choosePlan = (isLoggedIn: boolean) =>
  isLoggedIn ? goToApp('/pay', { isAdvance: true }) : goToApp('/login', { isPricing: true });
