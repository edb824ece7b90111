export default function NotFoundPage() {
  return (
    <section className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-6 px-4 text-center">
      <title>Page not found</title>
      <p aria-hidden="true" className="text-7xl font-black text-accent">
        404
      </p>
      <h1 className="text-4xl font-extrabold tracking-tight text-white">WRONG TURN?</h1>
      <p className="text-muted">The page you are looking for does not exist or has moved.</p>
      <a href="/" className="rounded-xl bg-accent-strong px-5 py-3 font-semibold text-white hover:bg-accent">
        Go to Home
      </a>
    </section>
  );
}
