import { PageHeader } from './admin-ui.tsx';

export default function Page() {
  return (
    <>
      <PageHeader title="Cashback" />
      <p className="text-muted">Not available yet.</p>
    </>
  );
}
