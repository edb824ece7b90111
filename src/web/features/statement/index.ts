import { lazyPanel } from '../../lib/lazy-panel.ts';

// The public face of src/web/features/statement: other features import it only from here
// (docs/decisions/338-web-reads-and-folder-rules.md, checked by src/web/architecture.test.ts).
/** A tab of the order page, its own chunk loaded when the tab is first opened. */
export const PaymentsPanel = /* @__PURE__ */ lazyPanel(() => import('./payments-panel.tsx'));
