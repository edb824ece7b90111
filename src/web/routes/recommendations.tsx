import { BarePageBarIsland } from '../components/bare-page-bar.tsx';
import { Island } from '../islands/island.tsx';
import { ContactForm } from '../features/contact/contact-form.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';

/** Spec §2 /getAllRecommendations: a contact-details form; it is sent like the contact form. */
export default function RecommendationsPage() {
  usePageMeta('/getAllRecommendations');
  return (
    <>
      <BarePageBarIsland />
      <div className="mx-auto max-w-3xl px-4 pt-8 pb-24">
        <h1 className="text-4xl font-bold tracking-tight text-white sm:text-5xl">Complete Your Details to Get Expert Suggestions</h1>
        <p className="mt-4 text-lg text-muted">Our team will look at your business and suggest the website that fits it best.</p>
        <div className="mt-10 rounded-3xl border border-line bg-card p-6 sm:p-8">
          <Island
            name="contact-form"
            hydrate={['session', 'interaction']}
            component={ContactForm}
            props={{
              messageLabel: 'About your business',
              messagePlaceholder: 'What does your business do, and what should the website achieve?',
            }}
          />
        </div>
      </div>
    </>
  );
}
