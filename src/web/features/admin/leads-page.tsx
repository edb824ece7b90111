import { PageHeader } from './admin-ui.tsx';

export default function Page() {
  return (
    <>
      <PageHeader title="Leads and contact messages" />
      <p className="text-muted">Not available yet.</p>
    </>
  );
}
