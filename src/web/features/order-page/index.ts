// The public face of src/web/features/order-page: other features import it only from here
// (docs/decisions/338-web-reads-and-folder-rules.md, checked by src/web/architecture.test.ts).
export { OrderWorkspace, usePreloadOrderTab } from './order-workspace.tsx';
export type { WorkspaceTab } from './order-workspace.tsx';
