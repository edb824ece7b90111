// Placeholder from the platform issue; its feature issue replaces it.
export default function LandingPage() {
  return (
    <section className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-3xl font-bold text-white">Let's Innovate Together</h1>
    </section>
  );
}
