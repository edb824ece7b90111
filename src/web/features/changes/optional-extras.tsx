import { getAddons, type PublicAddonsResponse } from '../../../contract/changes.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { extraPrice } from './optional-extras-dom.ts';

/**
 * "Optional extras" under the plan card of /pricing, in the visitor's currency (decision 250).
 * The section is in the prerendered page; its items are the live catalogue, filled by
 * optional-extras-dom.ts there and by this component in the app
 * (docs/decisions/261-optional-extras-on-pricing.md).
 */
export function OptionalExtras({ currency }: { currency: string }) {
  // A failed read leaves the section hidden.
  const list: PublicAddonsResponse | null = useOperation(getAddons, { query: { currency } }).data;
  return (
    <section
      aria-labelledby="extras-title"
      className="mx-auto mt-8 max-w-md rounded-2xl border border-line bg-card p-6"
      data-testid="optional-extras"
      hidden={!list || list.addons.length === 0}
    >
      <h2 id="extras-title" className="text-lg font-semibold text-white">
        Optional extras
      </h2>
      <ul className="mt-3 flex flex-col gap-3" data-extras-list>
        {list?.addons.map((a) => (
          <li key={a.id} className="flex flex-col gap-1" data-testid="extra">
            <p className="flex flex-wrap justify-between gap-x-3 text-ink">
              <span className="font-medium text-white">{a.name}</span>
              <span>{extraPrice(a, list)}</span>
            </p>
            {a.description && <p className="text-sm text-muted">{a.description}</p>}
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-muted">Request them from your order page once your website is under way.</p>
    </section>
  );
}
