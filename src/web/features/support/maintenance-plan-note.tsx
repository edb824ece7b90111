import { MAINTENANCE_COVERAGE } from '../../../domain/maintenance-plan.ts';
import { MAINTENANCE_TERMS_ANCHOR } from '../../../domain/maintenance-terms.ts';
import { siteConfig } from '../../lib/site-config.ts';

/**
 * Under the plan card of /pricing: what comes after the included year of support — the maintenance
 * plan's price (MAINTENANCE_MONTHLY_PRICE, a text setting the server fills in at serve time) and
 * what it covers. Static markup: no script on the page for it (the public pages' JS budget).
 */
export function MaintenancePlanNote() {
  const { maintenancePrice } = siteConfig();
  return (
    <section
      aria-labelledby="maintenance-note-title"
      data-testid="maintenance-note"
      className="mx-auto mt-8 max-w-md rounded-2xl border border-line bg-card p-6 text-sm"
    >
      <h2 id="maintenance-note-title" className="text-base font-semibold text-white">
        After the first year: the maintenance plan
      </h2>
      <p className="mt-2 leading-relaxed text-muted">
        <strong className="text-white">{maintenancePrice}</strong>: {MAINTENANCE_COVERAGE}. Subscribe from your order&apos;s Support tab; it
        starts when the included year ends, and you can cancel at the end of any month.{' '}
        <a
          href={`/termsandconditions#${MAINTENANCE_TERMS_ANCHOR}`}
          className="text-accent-soft underline underline-offset-2 hover:text-white"
        >
          Maintenance terms
        </a>
      </p>
    </section>
  );
}
