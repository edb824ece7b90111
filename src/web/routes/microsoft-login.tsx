// Placeholder from the platform issue; its feature issue replaces it.
export default function MicrosoftLoginPage() {
  return (
    <section className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-3xl font-bold text-white">Microsoft sign-in</h1>
    </section>
  );
}
