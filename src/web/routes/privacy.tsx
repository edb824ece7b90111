import { LegalPage } from '../components/legal-page.tsx';
import { usePageMeta } from '../features/seo/use-page-meta.ts';
import { siteConfig } from '../lib/site-config.ts';

/** Spec §2 "Privacy". */
export default function PrivacyPage() {
  usePageMeta('/privacypolicy');
  const { brand, email, invoiceRetentionYears } = siteConfig();
  const dashboard = (
    <a href="/dashboard" className="text-accent-soft underline underline-offset-2 hover:text-white">
      your dashboard
    </a>
  );
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
              <li>
                For each device you sign in on: the kind of device and browser, the city your connection appears to come from (if it can be
                told) and when you last used it. For each passkey you add: its name and its public key (never anything that could sign in as
                you).
              </li>
            </ul>
          ),
        },
        {
          title: 'How we use it',
          body: (
            <p>
              To contact you about your request, to deliver and support your website, to process payments and to keep our service secure.
            </p>
          ),
        },
        {
          title: 'Visit counting without cookies',
          body: (
            <ul className="list-disc space-y-1 pl-5">
              <li>
                When you open one of our public pages we count the visit: the page, the day, the campaign tags in the link (utm_source,
                utm_medium, utm_campaign) and the name of the website you came from (not the full address).
              </li>
              <li>
                We set no cookie, store nothing in your browser and store no IP address. To count a visitor once a day we keep a code made
                from your IP address and browser with a random key; the key changes every day and is deleted after two days, and then nobody
                can tell whose code it was.
              </li>
              <li>
                When you leave your e-mail or phone number, send the contact form, sign up or order, we note where your visit of that day or
                the day before came from (for example “newsletter” or “google.com”) with it, so we know which channels bring customers. An
                order keeps the source noted when you signed up.
              </li>
              <li>If your browser sends Do Not Track or Global Privacy Control, we do not count you and note no source.</li>
            </ul>
          ),
        },
        {
          title: 'We do not sell your data',
          body: (
            <p>
              We never sell your personal data. We share it only with the providers that run our service, such as payment and e-mail
              providers.
            </p>
          ),
        },
        {
          title: 'Your rights',
          body: (
            <p>
              You may access, correct or delete your personal data at any time. You can do it yourself from {dashboard}, as the next section
              explains, or write to us and we will act on your request.
            </p>
          ),
        },
        {
          title: 'How to see, correct, export or delete your data',
          body: (
            <>
              <p>Sign in and open {dashboard}. Its Personal Details tab has everything below.</p>
              <ul className="list-disc space-y-2 pl-5">
                <li>
                  <strong className="text-ink">See and correct.</strong> “Your details” shows your name, e-mail address, phone and address.
                  “Edit details” corrects the name, the phone (with its country code) and the address. “Change e-mail” moves your account to
                  a new address once you enter the code we send there.
                </li>
                <li>
                  <strong className="text-ink">Export.</strong> “Download my data” gives you one ZIP file: a JSON file with your profile,
                  sessions, orders, payments, referral and cashback, messages and chats, and the enquiries and contact messages sent with
                  your e-mail address, plus your invoices as PDF files and the files of your orders.
                </li>
                <li>
                  <strong className="text-ink">Delete.</strong> “Delete my account” asks for a fresh code we e-mail you (or your passkey).
                  You are then signed out on every device at once; your name, e-mail address, phone, address, chats and messages are erased
                  or made anonymous, and we show you as “Deleted customer”. The files you uploaded to your orders are erased too, except
                  that for a design you approved we keep only a fingerprint (hash) of the files of that design, as the record of what you
                  approved. Tax law makes us keep invoices and payment records for {invoiceRetentionYears} years: the name and address on
                  each invoice stay on that invoice only. While an order you paid for is not yet delivered, or a maintenance plan still
                  runs, the account cannot be deleted — the dialog says so before it sends a code; write to us and we will sort it out
                  together.
                </li>
                <li>
                  <strong className="text-ink">Sessions and passkeys.</strong> “Your sessions” lists every device you are signed in on,
                  where (the city, if known) and when it was last used; sign out any of them, or all at once. Under passkeys you can add,
                  name and remove the passkeys you sign in with.
                </li>
              </ul>
            </>
          ),
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
