import { ButtonLink } from '../../components/ui/button-link.tsx';

/** What a signed-in customer sees at /admin: a clear refusal, no data. */
export function AdminsOnly() {
  return (
    <section className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-3xl font-bold text-white">Admins only</h1>
      <p className="text-muted">This area is for the agency's team. Your account does not have access to it.</p>
      <ButtonLink to="/dashboard">Go to your dashboard</ButtonLink>
    </section>
  );
}
