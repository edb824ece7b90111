// The public face of src/web/features/invoices: other features import it only from here
// (docs/decisions/338-web-reads-and-folder-rules.md, checked by src/web/architecture.test.ts).
export { OrderInvoices, useOrderInvoices } from './order-invoices.tsx';
