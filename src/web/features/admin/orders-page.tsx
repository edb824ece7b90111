import { PageHeader } from './admin-ui.tsx';

export default function Page() {
  return (
    <>
      <PageHeader title="Orders" />
      <p className="text-muted">Not available yet.</p>
    </>
  );
}
