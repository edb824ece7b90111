import { PageHeader } from './admin-ui.tsx';

export default function Page() {
  return (
    <>
      <PageHeader title="Order" />
      <p className="text-muted">Not available yet.</p>
    </>
  );
}
