// The public face of src/web/features/site-care: other features import it only from here
// (docs/decisions/338-web-reads-and-folder-rules.md, checked by src/web/architecture.test.ts).
export { SiteHealthPanel, useSiteCareReads } from './site-health-panel.tsx';
export { SiteMailsSwitch } from './site-mails-switch.tsx';
