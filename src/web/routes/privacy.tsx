import { LegalPage } from '../components/legal-page.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { siteConfig } from '../lib/site-config.ts';

/** Spec §2 "Privacy". */
export default function PrivacyPage() {
  usePageMeta('/privacypolicy');
  const { brand, email } = siteConfig();
  return (
    <LegalPage
      title="Privacy Policy"
      intro={`How ${brand} collects, uses and protects your personal data.`}
      sections={[
        {
          title: 'What we collect',
          body: (
            <ul className="list-disc space-y-1 pl-5">
              <li>Your name, e-mail address, business address and phone number, when you give them to us.</li>
              <li>Usage and log data: your IP address, browser type, access times and the pages you viewed.</li>
            </ul>
          ),
        },
        {
          title: 'How we use it',
          body: <p>To contact you about your request, to deliver and support your website, to process payments and to keep our service secure.</p>,
        },
        {
          title: 'Visit counting without cookies',
          body: (
            <ul className="list-disc space-y-1 pl-5">
              <li>
                When you open one of our public pages we count the visit: the page, the day, the campaign tags in the link (utm_source, utm_medium,
                utm_campaign) and the name of the website you came from (not the full address).
              </li>
              <li>
                We set no cookie, store nothing in your browser and store no IP address. To count a visitor once a day we keep a code made from your IP address
                and browser with a random key; the key changes every day and is deleted after two days, and then nobody can tell whose code it was.
              </li>
              <li>
                When you leave your e-mail or phone number, send the contact form, sign up or order, we note where your visit of that day or the day before came
                from (for example “newsletter” or “google.com”) with it, so we know which channels bring customers. An order keeps the source noted when you
                signed up.
              </li>
              <li>If your browser sends Do Not Track or Global Privacy Control, we do not count you and note no source.</li>
            </ul>
          ),
        },
        {
          title: 'We do not sell your data',
          body: <p>We never sell your personal data. We share it only with the providers that run our service, such as payment and e-mail providers.</p>,
        },
        {
          title: 'Your rights',
          body: <p>You may access, correct or delete your personal data at any time. Write to us and we will act on your request.</p>,
        },
        {
          title: 'Contact',
          body: (
            <p>
              Support e-mail:{' '}
              <a href={`mailto:${email}`} className="text-accent-soft underline underline-offset-2 hover:text-white">
                {email}
              </a>
            </p>
          ),
        },
      ]}
      footer={<p>Last updated 22/10/2024.</p>}
    />
  );
}
