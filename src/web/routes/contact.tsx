import { BarePageBarIsland } from '../components/bare-page-bar.tsx';
import { Island } from '../islands/island.tsx';
import { ContactForm } from '../features/contact/contact-form.tsx';
import { ContactSideBox } from '../features/contact/contact-side-box.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';

/** Spec §2 "Contact". */
export default function ContactPage() {
  usePageMeta('/contact');
  return (
    <>
      <BarePageBarIsland />
      <div className="mx-auto max-w-6xl px-4 pt-8 pb-24">
        <h1 className="max-w-2xl text-4xl font-bold tracking-tight text-white sm:text-5xl">We would love to hear from you!</h1>
        <p className="mt-4 max-w-2xl text-lg text-muted">Tell us about your idea. We usually answer within one business day.</p>
        <div className="mt-10 grid gap-8 lg:grid-cols-[1.6fr_1fr]">
          <div className="rounded-3xl border border-line bg-card p-6 sm:p-8">
            <Island name="contact-form" hydrate={['session', 'interaction']} component={ContactForm} props={{}} />
          </div>
          <ContactSideBox />
        </div>
      </div>
    </>
  );
}
