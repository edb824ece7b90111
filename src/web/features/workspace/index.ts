import { lazyPanel } from '../../lib/lazy-panel.ts';

// The public face of src/web/features/workspace: other features import it only from here
// (docs/decisions/338-web-reads-and-folder-rules.md, checked by src/web/architecture.test.ts).
export { useOrderFiles } from './order-files.ts';
export { PanelCard, PanelError, PanelLoading, formatShortWhen } from './panel-ui.tsx';
export { UnreadMessagesLink } from './unread-messages-link.tsx';
export { useOrderRoom } from './use-order-room.ts';
export { supportRead, workspaceOf } from './workspace-api.ts';
export type { Side, Workspace } from './workspace-api.ts';
/** A tab of the order page, its own chunk loaded when the tab is first opened. */
export const BriefPanel = /* @__PURE__ */ lazyPanel(() => import('./brief-panel.tsx'));
/** A tab of the order page, its own chunk loaded when the tab is first opened. */
export const FilesPanel = /* @__PURE__ */ lazyPanel(() => import('./files-panel.tsx'));
/** A tab of the order page, its own chunk loaded when the tab is first opened. */
export const ReviewsPanel = /* @__PURE__ */ lazyPanel(() => import('./reviews-panel.tsx'));
/** A tab of the order page, its own chunk loaded when the tab is first opened. */
export const MessagesPanel = /* @__PURE__ */ lazyPanel(() => import('./messages-panel.tsx'));
