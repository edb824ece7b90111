// The public face of src/web/features/changes: other features import it only from here
// (docs/decisions/338-web-reads-and-folder-rules.md, checked by src/web/architecture.test.ts).
export { AdminChanges } from './admin-changes.tsx';
export { OptionalExtras } from './optional-extras.tsx';
