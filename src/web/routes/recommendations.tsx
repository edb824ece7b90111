// Placeholder from the platform issue; its feature issue replaces it.
export default function RecommendationsPage() {
  return (
    <section className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-3xl font-bold text-white">Complete Your Details to Get Expert Suggestions</h1>
    </section>
  );
}
