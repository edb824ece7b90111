import { SocialLinks } from '../../components/social-links.tsx';
import { siteConfig } from '../../lib/site-config.ts';

/** Spec §2 contact side box: address, phone, support e-mail and social links. */
export function ContactSideBox() {
  const site = siteConfig();
  const row = 'flex gap-3';
  const icon = 'mt-0.5 h-5 w-5 shrink-0 text-accent-soft';
  return (
    <aside
      aria-labelledby="contact-side-title"
      className="self-start rounded-3xl border border-line bg-card p-6 sm:p-8"
      data-testid="contact-side-box"
    >
      <h2 id="contact-side-title" className="text-xl font-semibold text-white">
        Get in touch
      </h2>
      <address className="mt-5 flex flex-col gap-4 not-italic text-ink">
        <p className={row}>
          <svg viewBox="0 0 24 24" className={icon} fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21Z" />
            <circle cx="12" cy="9.5" r="2.5" />
          </svg>
          <span>{site.address}</span>
        </p>
        <p className={row}>
          <svg viewBox="0 0 24 24" className={icon} fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2Z" />
          </svg>
          <a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`} className="hover:text-white">
            {site.phone}
          </a>
        </p>
        <p className={row}>
          <svg viewBox="0 0 24 24" className={icon} fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <rect x="3" y="5" width="18" height="14" rx="2" />
            <path d="m3 7 9 6 9-6" />
          </svg>
          <a href={`mailto:${site.email}`} className="break-all hover:text-white">
            {site.email}
          </a>
        </p>
      </address>
      <SocialLinks className="mt-6" />
    </aside>
  );
}
