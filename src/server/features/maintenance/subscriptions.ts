import type { AppDeps } from '../../deps.ts';
import { maintenanceSupportExtension } from './plan-queries.ts';

/**
 * What the maintenance plan answers for other features, set once when the app is built: while a
 * plan has paid a period, support runs to its end (features/support reads the extension from
 * `deps.queries`, docs/decisions/315-support-extension-on-deps.md).
 */
export function subscribeMaintenance(deps: AppDeps) {
  deps.queries.supportExtension = maintenanceSupportExtension;
}
